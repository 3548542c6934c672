// Every answer carries the headers the service sends (bench/nextjs-reference.js writes them to
// required-headers.json before the build). Pages get the service's Content-Security-Policy with a
// fresh nonce, set on the request too: Next reads the nonce from it and puts it on its own scripts
// (Next's Content Security Policy guide). No matcher: the proxy runs on every request, so static
// files carry the headers as well, as the service's do.
import { NextResponse } from 'next/server';
import required from './required-headers.json';

export function proxy(request) {
  const { pathname } = request.nextUrl;
  // Built chunks and public/ files keep Next's own caching; pages are personalised and no-store.
  const isAsset = pathname.startsWith('/_next/') || pathname.startsWith('/static/');
  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const csp = required.csp.replaceAll('NONCE', nonce);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('content-security-policy', csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('content-security-policy', csp);
  for (const [name, value] of required.headers) response.headers.set(name, String(value));
  if (!isAsset) response.headers.set('cache-control', 'no-store');
  return response;
}

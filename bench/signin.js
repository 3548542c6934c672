// Real sign-in journeys over HTTP with a cookie jar, as a browser makes them: /signin -> the embedded
// IdP's steps -> the landing -> the brand redirect. `signIn` gives the cookie header of the resulting
// session (the bench measures signed-in requests with it); `passwordSignIn` and `register` are the
// whole journeys (bench/journeys.js counts them), returning what the brand received.
'use strict';
const { CookieJar } = require('tough-cookie');

/** What a browser sends with a request: the jar's cookies for `url`, and `form` url-encoded. */
async function requestParts(jar, url, form) {
  const headers = {};
  const cookie = await jar.getCookieString(url);
  if (cookie) headers.cookie = cookie;
  let body;
  if (form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(form).toString();
  }
  return { headers, body };
}

async function request(jar, url, form) {
  const { headers, body } = await requestParts(jar, url, form);
  const res = await fetch(url, {
    method: form ? 'POST' : 'GET',
    headers,
    body,
    redirect: 'manual',
  });
  for (const c of res.headers.getSetCookie()) await jar.setCookie(c, url, { ignoreError: true });
  return { status: res.status, url, location: res.headers.get('location'), body: await res.text() };
}

/** Follows redirects until a page, or until `stop(nextUrl)` says the next hop is not ours to take. */
async function follow(jar, res, stop, hops = { count: 0 }) {
  while (res.status >= 300 && res.status < 400 && res.location) {
    const next = new URL(res.location, res.url).href;
    if (stop && stop(next)) return res;
    hops.count++;
    res = await request(jar, next);
  }
  return res;
}

/** Submits the step page's form (its action, its CSRF token) with `values`. */
async function submit(jar, page, values, action = 'submit') {
  const form = /<form[^>]*action="([^"]+)"/.exec(page.body);
  const csrf = /name="csrf" value="([^"]*)"/.exec(page.body);
  if (!form || !csrf)
    throw new Error(`no step form at ${page.url} (${page.status}): ${page.body.slice(0, 300)}`);
  return request(jar, new URL(form[1].replace(/&amp;/g, '&'), page.url).href, {
    csrf: csrf[1],
    action,
    ...values,
  });
}

/** The brand redirect ends the journey: a Location off this service, or to its demo brand page. */
const atBrand = (base) => (next) => !next.startsWith(base) || next.includes('/demo/brand/');

function brandResult(jar, base, res, hops) {
  if (res.status !== 302 || !res.location || !atBrand(base)(new URL(res.location, res.url).href))
    throw new Error(`the journey did not end at the brand: ${res.status} ${res.url}`);
  return { jar, brandUrl: new URL(res.location, res.url), requests: hops.count };
}

/**
 * A complete password sign-in of a collector the IdP does not know yet in this browser (a fresh
 * jar): the brand's link (`path`, default `/signin?b=psa`), the IdP's email and password steps, the
 * landing, and the brand redirect. Returns the jar (signed in), the URL the brand received (with
 * `si`, `t`, `rt` for a web brand) and the number of HTTP requests the browser made.
 */
async function passwordSignIn(base, email, password, path = '/signin?b=psa') {
  const jar = new CookieJar();
  const hops = { count: 1 };
  let page = await follow(jar, await request(jar, `${base}${path}`), undefined, hops);
  hops.count++;
  page = await follow(jar, await submit(jar, page, { email }), undefined, hops);
  hops.count++;
  const end = await follow(jar, await submit(jar, page, { password }), atBrand(base), hops);
  return brandResult(jar, base, end, hops);
}

/**
 * Registers a new collector through the IdP's own steps, as a visitor would (issue 3): email, the
 * account form with the terms accepted, the emailed code (read from the local outbox), the welcome
 * and name steps. The password is hashed by the IdP like any other. Ends signed in, at the brand.
 */
async function register(base, { email, password, givenName = 'Bench', familyName = 'Collector' }) {
  const jar = new CookieJar();
  const hops = { count: 1 };
  const step = async (page, values) => {
    hops.count++;
    return follow(jar, await submit(jar, page, values), atBrand(base), hops);
  };
  let page = await follow(jar, await request(jar, `${base}/signin?b=psa`), undefined, hops);
  page = await step(page, { email });
  page = await step(page, { givenName, familyName, newPassword: password, acceptTerms: 'true' });
  const outbox = await fetch(`${base}/idp/outbox/messages.json?to=${encodeURIComponent(email)}`);
  const message = (await outbox.json()).messages.find((m) => m.purpose === 'verify-email');
  const code = /\b([0-9]{6})\b/.exec(message?.text ?? '')?.[1];
  if (!code) throw new Error(`no verification code for ${email} in the outbox`);
  page = await step(page, { code });
  // The welcome and the name steps of a new account, then the brand.
  while (page.status === 200)
    page = await step(page, /name="givenName"/.test(page.body) ? { givenName, familyName } : {});
  return brandResult(jar, base, page, hops);
}

/** Signs a demo collector in and returns the cookie header of the resulting session. */
async function signIn(base, email, password) {
  const { jar } = await passwordSignIn(base, email, password);
  const cookie = await jar.getCookieString(`${base}/signin`);
  if (!/sessionId=/.test(cookie)) throw new Error('bench sign-in did not produce a session');
  return cookie;
}

module.exports = { atBrand, follow, passwordSignIn, register, request, requestParts, signIn };

import { ExpressAdapter } from '@nestjs/platform-express';
import express from 'express';

/**
 * Issue 32 item 3: a path is the route it names and nothing else. Express matches routes ignoring
 * case and a trailing slash by default, so /SIGNIN and /signin/ reached /signin while every rule keyed
 * on the path (rate limits, metrics labels, an ingress rule written for /metrics) saw another path:
 * 80 password posts to /IDP/SIGNIN/<uid> met no limit. Case-sensitive, strict routing makes every
 * variant a 404. Express reads both settings once, when it makes its router, which Nest's adapter does
 * as it is built: so the Express instance is made here, set first, and handed to it.
 */
export function strictHttpAdapter(): ExpressAdapter {
  const instance = express();
  instance.set('case sensitive routing', true);
  instance.set('strict routing', true);
  return new ExpressAdapter(instance);
}

// Signs a demo collector in through the real journey (/signin -> embedded IdP steps -> landing) and
// returns the cookie header of the resulting session, so the bench measures signed-in requests.
'use strict';
const { CookieJar } = require('tough-cookie');

async function request(jar, url, form) {
  const headers = {};
  const cookie = await jar.getCookieString(url);
  if (cookie) headers.cookie = cookie;
  let body;
  if (form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(form).toString();
  }
  const res = await fetch(url, {
    method: form ? 'POST' : 'GET',
    headers,
    body,
    redirect: 'manual',
  });
  for (const c of res.headers.getSetCookie()) await jar.setCookie(c, url, { ignoreError: true });
  return { status: res.status, url, location: res.headers.get('location'), body: await res.text() };
}

async function follow(jar, res, stop) {
  while (res.status >= 300 && res.status < 400 && res.location) {
    const next = new URL(res.location, res.url).href;
    if (stop && stop(next)) return res;
    res = await request(jar, next);
  }
  return res;
}

async function submit(jar, page, values) {
  const action = /<form[^>]*action="([^"]+)"/.exec(page.body)[1].replace(/&amp;/g, '&');
  const csrf = /name="csrf" value="([^"]*)"/.exec(page.body)[1];
  return request(jar, new URL(action, page.url).href, { csrf, action: 'submit', ...values });
}

async function signIn(base, email, password) {
  const jar = new CookieJar();
  let page = await follow(jar, await request(jar, `${base}/signin?b=psa`));
  page = await follow(jar, await submit(jar, page, { email }));
  await follow(jar, await submit(jar, page, { password }), (next) => next.includes('/demo/brand/'));
  const cookie = await jar.getCookieString(`${base}/signin`);
  if (!/sessionId=/.test(cookie)) throw new Error('bench sign-in did not produce a session');
  return cookie;
}

module.exports = { signIn };

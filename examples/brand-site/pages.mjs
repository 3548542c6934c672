// The site's few pages, as plain HTML strings. Everything that came from outside is escaped.

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value) => String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);

function layout(title, body) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;line-height:1.5}th{text-align:left;padding-right:1rem}button,.button{font:inherit}</style>
</head><body><main>${body}</main></body></html>`;
}

/**
 * The home page: a Sign in link to the sign-on service, or who is signed in.
 * @param {{ brand: string, signInUrl: string, session?: import('./sessions.mjs').Session }} view
 */
export function homePage({ brand, signInUrl, session }) {
  const body = session
    ? `<h1>${escapeHtml(brand)}: brand site</h1>
<p data-testid="status">Signed in as <strong>${escapeHtml(session.sub)}</strong>.</p>
<p><a href="/account">Your account</a> · <a href="/signout">Sign out</a></p>`
    : `<h1>${escapeHtml(brand)}: brand site</h1>
<p data-testid="status">You are not signed in.</p>
<p><a class="button" href="${escapeHtml(signInUrl)}">Sign in</a></p>`;
  return layout(`${brand}: brand site`, body);
}

/**
 * Who is signed in, as this site verified it, with the refresh action and the sign-out link.
 * @param {{ brand: string, session: import('./sessions.mjs').Session }} view
 */
export function accountPage({ brand, session }) {
  const rows = [
    ['uid', session.uid],
    ['CollectorsId', session.collectorsId ?? ''],
    ['sub', session.sub],
    ['si', session.si ? 'received' : 'none'],
    ['received by', session.via],
    ['verified by', session.verifiedBy.join(', ')],
    ['access token expires', new Date(session.accessTokenExp * 1000).toISOString()],
  ];
  const last = session.refreshes.at(-1);
  const refreshed = last
    ? `<p role="status" data-testid="refresh">${
        last.status === 200
          ? `Refreshed at the IdP with this brand’s own client: HTTP 200, a new access token.`
          : `The IdP refused the refresh: ${escapeHtml(last.status ?? 'no answer')} ${escapeHtml(last.error)}.`
      }</p>`
    : '';
  return layout(
    `${brand}: your account`,
    `<h1>${escapeHtml(brand)}: your account</h1>
<table><tbody>${rows
      .map(
        ([name, value]) =>
          `<tr><th scope="row">${escapeHtml(name)}</th><td data-claim="${escapeHtml(name)}">${escapeHtml(value)}</td></tr>`,
      )
      .join('')}</tbody></table>
${refreshed}
<form method="post" action="/refresh"><button type="submit">Refresh the access token</button></form>
<p><a href="/">Home</a> · <a href="/signout">Sign out</a></p>`,
  );
}

/** A page that says what went wrong (never a stack, never a token). */
export function problemPage(title, message) {
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(message)}</p><p><a href="/">Home</a></p>`,
  );
}

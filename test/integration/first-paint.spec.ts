import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLIENT_DIST_DIR } from '../../src/config/project-paths';
import { inlineCss } from '../../src/render/client-assets';
import { Browser, type BrowserResponse } from '../support/browser';
import { signInVia } from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 18 item 5, first paint on a phone: the structure that lets a page paint from its HTML alone
 * (the timing itself is measured only by `npm run bench:page`). For /collection, the first sign-in
 * step and the error page: the only render-blocking style is the inline one, under the response's CSP
 * nonce, holding the build's first-paint rules; nothing in <head> is fetched or run before the paint
 * (no stylesheet link, no script, no preload), nor is any image (each is lazy, with its box); no
 * stylesheet is linked at all (one at the end of <body> stops Chromium's parser until it loads); the
 * preloads (modules, and the rules only the script uses) come after the page's content; the consent
 * dialog's stylesheet is not loaded.
 */
const manifest = () =>
  JSON.parse(fs.readFileSync(path.join(CLIENT_DIST_DIR, 'manifest.json'), 'utf8')) as {
    preload: string[];
    styles: Record<'critical' | 'critical-page' | 'deferred' | 'consent' | 'nudge', string>;
  };
const built = (name: 'critical' | 'critical-page' | 'nudge') =>
  inlineCss(fs.readFileSync(path.join(CLIENT_DIST_DIR, manifest().styles[name]), 'utf8'));

function structure(res: BrowserResponse) {
  const csp = res.headers.get('content-security-policy') ?? '';
  const styleSrc = /(?:^|;\s*)style-src ([^;]*)/.exec(csp)?.[1] ?? '';
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(styleSrc)?.[1];
  const html = res.body;
  const headEnd = html.indexOf('</head>');
  const head = html.slice(0, headEnd);
  const body = html.slice(headEnd);
  const styles = [...head.matchAll(/<style([^>]*)>([\s\S]*?)<\/style>/g)].map((m) => ({
    attributes: m[1] ?? '',
    css: m[2] ?? '',
  }));
  return { csp, styleSrc, nonce, html, head, body, styles };
}

describe('first paint: what a page needs before it can paint is in its HTML (issue 18 item 5)', () => {
  const t = useTestApp();
  let collection: BrowserResponse;
  let step: BrowserResponse;
  let error: BrowserResponse;
  beforeAll(async () => {
    const browser = new Browser();
    await signInVia(t, browser, '');
    collection = await browser.get(`${t.url}/collection`);
    const anonymous = new Browser();
    step = await anonymous.follow(await anonymous.get(`${t.url}/signin?b=psa`));
    error = await anonymous.request(`${t.url}/signin?b=nosuchbrand`, {
      headers: { accept: 'text/html' },
    });
  }, 60_000);

  const pages = () =>
    [
      ['/collection', collection, 200, 'critical'],
      ['the first sign-in step', step, 200, 'critical-page'],
      ['the error page', error, 400, 'critical'],
    ] as const;

  it('reaches the three pages', () => {
    for (const [name, res, status] of pages()) {
      expect({ name, status: res.status }).toEqual({ name, status });
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
    expect(new URL(step.url).pathname).toMatch(/^\/idp\/signin\//);
    expect(step.body).toContain('<form');
  });

  it('one render-blocking style: inline, under the CSP nonce of the response, with the build’s first-paint rules', () => {
    for (const [name, res, , css] of pages()) {
      const page = structure(res);
      expect({ name, nonce: page.nonce }).toEqual({ name, nonce: expect.any(String) });
      expect(page.styleSrc).not.toContain('unsafe-inline');
      expect(page.styles).toHaveLength(1);
      expect(page.styles[0]?.attributes).toBe(` nonce="${page.nonce}"`);
      expect(page.styles[0]?.css).toBe(built(css));
      // No render-blocking stylesheet link in <head>, and no script or preload there either: nothing
      // is fetched or run before the first paint.
      expect({ name, links: [...page.head.matchAll(/<link\b[^>]*>/g)].map((m) => m[0]) }).toEqual({
        name,
        links: [expect.stringMatching(/^<link rel="icon" /)],
      });
      expect(page.head).not.toContain('<script');
    }
  });

  it('no image is fetched before the first paint, and each keeps its box until it arrives', () => {
    // An SVG <img> is a document Chromium builds on the page's main thread when the file arrives;
    // fetched with the page, the logo held back /collection's first full paint (BrandLogo).
    for (const [name, res] of pages()) {
      const images = [...structure(res).html.matchAll(/<img\b[^>]*>/g)].map((m) => m[0]);
      expect({ name, some: images.length > 0 }).toEqual({ name, some: true });
      for (const img of images)
        expect({ name, img }).toEqual({
          name,
          img: expect.stringMatching(
            /^(?=.*\bloading="lazy")(?=.*\bwidth="\d+")(?=.*\bheight="\d+")/,
          ),
        });
    }
  });

  it('no stylesheet link; preloads after the content; the consent stylesheet is not loaded', () => {
    const { preload, styles } = manifest();
    for (const [name, res] of pages()) {
      const page = structure(res);
      expect({ name, links: page.html.match(/<link rel="stylesheet"[^>]*>/g) }).toEqual({
        name,
        links: null,
      });
      const contentEnd = page.body.lastIndexOf('</main>');
      expect({ name, contentEnd: contentEnd > 0 }).toEqual({ name, contentEnd: true });
      for (const m of page.body.matchAll(/<link rel="(modulepreload|preload)"[^>]*>/g))
        expect({ name, link: m[0], afterContent: (m.index ?? 0) > contentEnd }).toEqual({
          name,
          link: m[0],
          afterContent: true,
        });
      expect(page.html).not.toContain(styles.consent);
    }
    // The hydrated pages: every first-load chunk preloaded, with the nonce, and the script's rules.
    for (const res of [collection, error]) {
      const page = structure(res);
      expect(page.body).toContain(
        `<link rel="preload" as="style" href="/static/app/${styles.deferred}"/>`,
      );
      for (const chunk of preload)
        expect(page.body).toContain(
          `<link rel="modulepreload" href="/static/app/${chunk}" nonce="${page.nonce}"/>`,
        );
    }
    // The sign-in step runs one small inline script (its own messages for empty fields), under
    // the nonce, after the content, and loads nothing: it has nothing to preload.
    expect(step.body).not.toMatch(/<link rel="(modulepreload|preload)"/);
    const stepParts = structure(step);
    expect(step.body.match(/<script\b[^>]*>/g)).toEqual([`<script nonce="${stepParts.nonce}">`]);
    expect(stepParts.head).not.toContain('<script');
  });

  // Issue 52 item 1: the app nudge is drawn by the server at the top of a page a phone asks for, so
  // it has its room before the first paint; its rules come with that page alone, and one small
  // script in <head>, under the nonce and fetching nothing, hides it before the body is drawn when
  // it was shown in the last 168 hours.
  it('a phone’s page: the nudge first in the body, its rules inline, a check in head', async () => {
    const phone = new Browser({
      'user-agent':
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) ' +
        'Chrome/126.0.0.0 Mobile Safari/537.36',
    });
    await signInVia(t, phone, '');
    const page = structure(await phone.get(`${t.url}/collection`));
    expect(page.styles).toHaveLength(1);
    expect(page.styles[0]?.css).toBe(built('critical') + built('nudge'));
    expect(page.head.match(/<script\b[^>]*>/g)).toEqual([`<script nonce="${page.nonce}">`]);
    expect(page.head).toContain('appNudgeLastShown');
    const nudge = page.body.indexOf('<section class="app-nudge"');
    expect(nudge).toBeGreaterThan(0);
    expect(nudge).toBeLessThan(page.body.indexOf('<header'));
    // A desktop's page carries none of it.
    expect(structure(collection).html).not.toContain('app-nudge');
  });
});

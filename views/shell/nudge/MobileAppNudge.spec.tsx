import { renderToString } from 'react-dom/server';
import enUS from '../../../locales/en-US/common.json';
import { createTranslate } from '../../../src/shared/translate';
import { APP_STORE_LINKS, MobileAppNudge, MobileAppNudgeBanner } from './MobileAppNudge';

const t = createTranslate({ common: enUS });

describe(MobileAppNudge.name, () => {
  it('on the server, draws the banner for the platform the request named; reads no storage', () => {
    const storage = { getItem: jest.fn(() => null), setItem: jest.fn() };
    const now = jest.fn(() => 0);
    const html = renderToString(
      <MobileAppNudge t={t} platform="android" storage={storage} now={now} />,
    );
    expect(html).toContain(
      '<section class="app-nudge" aria-label="Mobile app" data-platform="android">',
    );
    // Whether it is due is the browser's question (its storage): nothing is read while rendering.
    expect(storage.getItem).not.toHaveBeenCalled();
    expect(storage.setItem).not.toHaveBeenCalled();
    expect(now).not.toHaveBeenCalled();
  });

  it('renders nothing on the server when the request named no phone', () => {
    const storage = { getItem: jest.fn(() => null), setItem: jest.fn() };
    const now = jest.fn(() => 0);
    const html = renderToString(
      <MobileAppNudge t={t} storage={storage} now={now} userAgent="Mozilla/5.0 (iPhone)" />,
    );
    expect(html).toBe('');
    // The decision belongs to the effect after hydration: nothing is read or written while rendering.
    expect(storage.getItem).not.toHaveBeenCalled();
    expect(storage.setItem).not.toHaveBeenCalled();
    expect(now).not.toHaveBeenCalled();
  });
});

describe(MobileAppNudgeBanner.name, () => {
  const render = (platform: 'ios' | 'android') =>
    renderToString(
      <MobileAppNudgeBanner
        t={t}
        platform={platform}
        storeUrl={APP_STORE_LINKS[platform]}
        onClose={() => undefined}
      />,
    );

  it('is a labelled section with a title, a line of text and a close button', () => {
    const html = render('ios');
    expect(html).toContain(
      '<section class="app-nudge" aria-label="Mobile app" data-platform="ios">',
    );
    expect(html).toContain('<p class="app-nudge-title">Get the PSA app</p>');
    expect(html).toContain(
      '<button type="button" class="app-nudge-close" aria-label="Dismiss the app suggestion">',
    );
    expect(html).not.toContain('<!-- -->');
  });

  it.each([
    ['ios', 'https://apps.apple.com/', 'Download on the App Store'],
    ['android', 'https://play.google.com/', 'Get it on Google Play'],
  ] as const)('links %s to its store', (platform, store, label) => {
    const html = render(platform);
    expect(html).toMatch(
      new RegExp(`<a class="app-nudge-store" href="${store}[^"]*">${label}</a>`),
    );
  });
});

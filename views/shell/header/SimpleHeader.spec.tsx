import { renderToString } from 'react-dom/server';
import { BRANDS } from '../../../src/shared/brand';
import { LOCALES } from '../../../src/shared/locale';
import { simpleHeaderLogo } from './header-brand';
import { escapeHtml, shellData, translateFor } from '../../../test/fixtures/header.fixtures';
import { SimpleHeader } from './SimpleHeader';

describe(SimpleHeader.name, () => {
  it.each(BRANDS)('%s: shows its logo, named by the brand', (brand) => {
    const logo = simpleHeaderLogo(brand);
    const html = renderToString(
      <SimpleHeader data={shellData({ brand })} t={translateFor('en-US')} />,
    );
    expect(html).toContain(`src="/static/brand/logo-${logo}-color.svg"`);
    expect(html).toContain(`alt="${translateFor('en-US')(`header.brandNames.${logo}`)}"`);
    expect(html).not.toContain('<a ');
  });

  it.each(LOCALES)('%s: the back button is a link when backHref is given', (locale) => {
    const t = translateFor(locale);
    const html = renderToString(
      <SimpleHeader data={shellData({ locale, brand: 'pcgs' })} t={t} backHref="/collection" />,
    );
    expect(html).toContain(
      `href="/collection" class="ui-button ui-button--sm ui-button--secondary simple-site-header__back">${escapeHtml(t('header.actions.back'))}</a>`,
    );
    expect(html).toMatch(/^<header class="simple-site-header">/);
    expect(html).not.toContain('<!-- -->');
    expect(html).not.toContain('style=');
  });
});

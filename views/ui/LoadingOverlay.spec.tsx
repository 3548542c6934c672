import { renderToString } from 'react-dom/server';
import { LoadingOverlay, LoadingScreen } from './LoadingOverlay';
import enUS from '../../locales/en-US/common.json';
import { createTranslate } from '../../src/shared/translate';

const enTranslate = createTranslate({ common: enUS });

describe(LoadingOverlay.name, () => {
  const html = renderToString(<LoadingOverlay t={enTranslate} />);

  it('is a busy progressbar labelled "Loading" (§2 Signed-in shell)', () => {
    expect(html).toContain('role="progressbar"');
    expect(html).toContain('aria-label="Loading"');
    expect(html).toContain('aria-busy="true"');
  });

  it('has no value (the wait has no known length) and no nested live region', () => {
    expect(html).not.toContain('aria-valuenow');
    expect(html).not.toContain('role="status"');
  });
});

describe(LoadingScreen.name, () => {
  it('shows an extra-large spinner that says "Loading"', () => {
    const html = renderToString(<LoadingScreen t={enTranslate} />);
    expect(html).toContain('class="ui-loading-screen"');
    expect(html).toContain('ui-spinner--xl');
    expect(html).toContain('role="status"');
    expect(html).toContain('>Loading</span>');
  });
});

import { renderToString } from 'react-dom/server';
import { Spinner, SPINNER_SIZES, SpinnerGraphic } from './Spinner';
import enUS from '../../locales/en-US/common.json';
import { createTranslate } from '../../src/shared/translate';

const enTranslate = createTranslate({ common: enUS });

describe(Spinner.name, () => {
  it('is a status named "Loading" by default, with the ring hidden from assistive technology', () => {
    const html = renderToString(<Spinner t={enTranslate} />);
    expect(html).toBe(
      '<span role="status" aria-label="Loading" class="ui-spinner-status">' +
        '<span class="ui-spinner ui-spinner--md" aria-hidden="true"></span>' +
        '<span class="visually-hidden">Loading</span></span>',
    );
  });

  it('prefers an explicit label', () => {
    const html = renderToString(<Spinner t={enTranslate} label="Getting a reference number" />);
    expect(html).toContain('aria-label="Getting a reference number"');
    expect(html).not.toContain('>Loading<');
  });

  it.each(SPINNER_SIZES)('size %s gives the ui-spinner--%s class (§9)', (size) => {
    expect(renderToString(<Spinner size={size} label="Wait" />)).toContain(`ui-spinner--${size}`);
  });

  it('offers the bare ring for places that name the wait themselves', () => {
    expect(renderToString(<SpinnerGraphic size="xs" />)).toBe(
      '<span class="ui-spinner ui-spinner--xs" aria-hidden="true"></span>',
    );
  });
});

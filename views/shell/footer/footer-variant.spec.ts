import { BRANDS } from '../../../src/shared/brand';
import { FOOTER_VARIANTS, footerVariantFor } from './footer-links';

describe(footerVariantFor.name, () => {
  it('powerpacks: its pages show the power-pack footer where others show the legal one', () => {
    expect(footerVariantFor('legal', 'powerpacks')).toBe('powerpacks');
  });

  it.each(BRANDS.filter((b) => b !== 'powerpacks'))('%s: the legal footer stays legal', (brand) => {
    expect(footerVariantFor('legal', brand)).toBe('legal');
  });

  it.each(FOOTER_VARIANTS.filter((v) => v !== 'legal'))(
    'a page that asks for the %s footer gets it, whatever the brand',
    (variant) => {
      for (const brand of BRANDS) expect(footerVariantFor(variant, brand)).toBe(variant);
    },
  );
});

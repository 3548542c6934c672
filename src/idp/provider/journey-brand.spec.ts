import { BRANDS } from '../../shared/brand';
import { BRAND_PARAM, journeyBrand } from './journey-brand';

describe(journeyBrand.name, () => {
  it.each(BRANDS)('brand=%s: that brand', (brand) => {
    expect(journeyBrand({ [BRAND_PARAM]: brand })).toBe(brand);
  });

  it.each([
    ['no parameters', undefined],
    ['no brand', { client_id: 'x' }],
    ['an empty brand', { brand: '' }],
    ['not a brand of ours', { brand: 'acme' }],
    ['a brand in capitals', { brand: 'PSA' }],
    ['a brand with more after it', { brand: 'psa ' }],
    ['a repeated brand', { brand: ['psa', 'pcgs'] }],
    ['a name of Object.prototype', { brand: 'constructor' }],
  ])('%s: collectors', (_case, params) => {
    expect(journeyBrand(params)).toBe('collectors');
  });
});

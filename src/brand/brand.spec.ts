import * as fs from 'node:fs';
import * as path from 'node:path';
import { testConfig } from '../../test/support/test-config';
import {
  BRANDS,
  Brand,
  REDIRECT_BRANDS,
  SOURCE_SITES,
  LOGOS,
  LOGO_ARTWORK,
  LOGO_VARIANTS,
  faviconPath,
  isRedirectBrand,
  logoBox,
  logoPath,
} from '../shared/brand';
import { BRAND_DEFINITIONS } from '../shared/brand-definitions';
import { PROJECT_ROOT } from '../config/project-paths';
import { brandFromReferrer } from './brand-from-referrer';
import { parseBrandParam } from '../shared/brand-query';

describe('brand enumeration (§3)', () => {
  it('has the 18 codes of the specification', () => {
    expect([...BRANDS].sort()).toEqual(
      [
        'collectors',
        'grading',
        'goldin',
        'goldinmobile',
        'psa',
        'psajapan',
        'psamobile',
        'pcgs',
        'pcgschina',
        'pcgsasia',
        'pcgseurope',
        'lbe',
        'cc',
        'ccmobile',
        'collectorsmobile',
        'certifi',
        'enterprise',
        'powerpacks',
      ].sort(),
    );
  });

  it('redirect brands are all but collectors, goldin and goldinmobile', () => {
    expect(REDIRECT_BRANDS).toHaveLength(15);
    for (const b of ['collectors', 'goldin', 'goldinmobile'] as Brand[])
      expect(isRedirectBrand(b)).toBe(false);
    for (const b of REDIRECT_BRANDS) expect(isRedirectBrand(b)).toBe(true);
  });

  it('has the source-site labels of §3', () => {
    expect(SOURCE_SITES).toEqual([
      'CARDLADDER',
      'COLLECTORS',
      'COLLECTORS_CORNER',
      'GOLDIN',
      'LONG_BEACH_EXPO',
      'PCGS',
      'PSA',
      'OTHER',
      'WATA',
    ]);
  });
});

describe('brand configuration (§3)', () => {
  const legacy: [Brand, number | undefined][] = [
    ['grading', 12],
    ['pcgs', 8],
    ['pcgsasia', 8],
    ['pcgseurope', 8],
    ['pcgschina', 16],
    ['psa', undefined],
    ['collectors', undefined],
    ['goldin', undefined],
  ];
  it.each(legacy)('%s has legacy site id %s and legacy login accordingly', (brand, id) => {
    const config = testConfig().brands[brand];
    expect(config.legacySiteId).toBe(id);
    expect(config.enableLegacyLogin).toBe(id !== undefined);
  });

  const clientTypes: [Brand, string][] = [
    ['psa', 'desktop'],
    ['pcgs', 'desktop'],
    ['psamobile', 'mobile-app'],
    ['collectorsmobile', 'mobile-app'],
    ['ccmobile', 'mobile-app'],
    ['goldinmobile', 'mobile-app'],
    ['goldin', 'auction'],
    ['enterprise', 'dealer-portal'],
  ];
  it.each(clientTypes)('%s is a %s client', (brand, type) => {
    expect(BRAND_DEFINITIONS[brand].clientType).toBe(type);
  });

  it('every brand has companyName, baseURL, tokenURL and localURL in every environment', () => {
    for (const env of ['local', 'dev', 'qa', 'prod']) {
      const brands = testConfig({ APP_ENV: env }).brands;
      for (const b of BRANDS) {
        expect(brands[b].companyName).not.toBe('');
        for (const url of [brands[b].baseURL, brands[b].tokenURL, brands[b].localURL])
          expect(() => new URL(url)).not.toThrow();
      }
    }
  });

  it('mobile apps always hand off by one-time code; they get an app scheme', () => {
    const brands = testConfig().brands;
    for (const b of BRANDS.filter((x) => BRAND_DEFINITIONS[x].clientType === 'mobile-app')) {
      expect(brands[b].handoff).toBe('handoff-code');
      expect(brands[b].appScheme).toMatch(/^[a-z]+$/);
    }
  });

  it('in local and dev brand redirects land on the local demo brand page; in prod on the brand site', () => {
    expect(testConfig().brands.pcgs.tokenURL).toBe('http://localhost:3333/demo/brand/pcgs');
    expect(testConfig({ APP_ENV: 'prod' }).brands.pcgs.tokenURL).toBe(
      'https://www.pcgs.com/auth/signin-callback',
    );
    expect(testConfig({ APP_ENV: 'prod' }).brands.psa.baseURL).toBe('https://www.psacard.com');
    expect(testConfig({ APP_ENV: 'prod' }).brands.psajapan.baseURL).toBe(
      'https://www.psacard.co.jp',
    );
    expect(testConfig({ APP_ENV: 'prod' }).brands.collectors.tokenURL).toBe(
      'https://signin.collectors.com/collection',
    );
    expect(testConfig().brands.collectors.localURL).toBe('http://localhost:3333/collection');
  });

  it('a brand may opt in to the handoff code for the web', () => {
    const config = testConfig({
      BRAND_URLS: JSON.stringify({ pcgs: { handoff: 'handoff-code' } }),
    });
    expect(config.brands.pcgs.handoff).toBe('handoff-code');
    expect(config.brands.psa.handoff).toBe('tokens-in-url');
  });

  it('has favicons and logos by brand', () => {
    expect(BRAND_DEFINITIONS.psa.favicon).toBe('psa');
    expect(BRAND_DEFINITIONS.pcgschina.favicon).toBe('pcgs');
    expect(BRAND_DEFINITIONS.collectors.favicon).toBe('collectors');
    expect(BRAND_DEFINITIONS.goldin.favicon).toBe('default');
    expect(logoPath('psavault', 'black')).toBe('/static/brand/logo-psavault-black.svg');
    expect(faviconPath('pcgs')).toBe('/static/brand/favicon-pcgs.svg');
  });

  it('knows each logo file’s artwork size (its viewBox), so a lazy <img> keeps its box', () => {
    for (const logo of LOGOS)
      for (const variant of LOGO_VARIANTS) {
        const file = path.join(
          PROJECT_ROOT,
          'client/public',
          logoPath(logo, variant).replace('/static/', ''),
        );
        const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(fs.readFileSync(file, 'utf8'));
        expect({ logo, variant, size: viewBox?.slice(1).map(Number) }).toEqual({
          logo,
          variant,
          size: [LOGO_ARTWORK[logo].width, LOGO_ARTWORK[logo].height],
        });
      }
    expect(logoBox('psa', 32)).toEqual({ width: 46, height: 32 });
    expect(logoBox('collectors', 32)).toEqual({ width: 151, height: 32 });
  });
});

describe(parseBrandParam.name, () => {
  const table: [unknown, ReturnType<typeof parseBrandParam>][] = [
    [undefined, { ok: true, brand: 'collectors' }],
    ['', { ok: true, brand: 'collectors' }],
    ['psa', { ok: true, brand: 'psa' }],
    ['PSA', { ok: true, brand: 'psa' }],
    ['PcGsChInA', { ok: true, brand: 'pcgschina' }],
    ['goldinmobile', { ok: true, brand: 'goldinmobile' }],
    ['psa ', { ok: false, message: 'b is not a known brand' }],
    ['netflix', { ok: false, message: 'b is not a known brand' }],
    ['__proto__', { ok: false, message: 'b is not a known brand' }],
    ['constructor', { ok: false, message: 'b is not a known brand' }],
    [['psa', 'pcgs'], { ok: false, message: 'b must be a single brand code' }],
    [{ a: 1 }, { ok: false, message: 'b must be a single brand code' }],
  ];
  it.each(table)('%j -> %j', (raw, expected) => {
    expect(parseBrandParam(raw)).toEqual(expected);
  });
});

describe(brandFromReferrer.name, () => {
  const local = testConfig().brands;
  const prod = testConfig({ APP_ENV: 'prod' }).brands;
  const table: [string, unknown, typeof local, Brand | undefined][] = [
    ['grading site -> psa (preferred over grading)', 'https://www.psacard.com/cert/1', prod, 'psa'],
    ['Japanese site', 'https://www.psacard.co.jp/', prod, 'psajapan'],
    ['coin site', 'https://www.pcgs.com/coinfacts', prod, 'pcgs'],
    ['regional coin site', 'https://www.pcgseurope.com/', prod, 'pcgseurope'],
    ['auction site', 'https://goldin.co/lot/1', prod, 'goldin'],
    ['dealer portal', 'https://dealers.collectors.com/x', prod, 'enterprise'],
    ['powerpacks', 'https://www.powerpacks.com/', prod, 'powerpacks'],
    ['this service', 'https://signin.collectors.com/collection', prod, 'collectors'],
    ['unknown host', 'https://evil.com/', prod, undefined],
    ['look-alike host', 'https://www.psacard.com.evil.com/', prod, undefined],
    ['other scheme on a known host', 'http://www.psacard.com/', prod, undefined],
    ['not a URL', 'www.psacard.com', prod, undefined],
    ['missing', undefined, prod, undefined],
    ['demo brand page in local', 'http://localhost:3333/demo/brand/pcgs/x', local, 'pcgs'],
    ['own pages in local', 'http://localhost:3333/collection', local, 'collectors'],
    [
      'demo path prefix is not a match',
      'http://localhost:3333/demo/brand/pcgsx',
      local,
      'collectors',
    ],
  ];
  it.each(table)('%s', (_name, referrer, directory, expected) => {
    expect(brandFromReferrer(referrer, directory)).toBe(expected);
  });
});

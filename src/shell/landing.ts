import type { BrandDirectory } from '../config/brand-directory';
import type { Brand } from '../shared/brand';
import { BRAND_DEFINITIONS } from '../shared/brand-definitions';
import { DEFAULT_LOCALE, type Locale, localizeUrl } from '../shared/locale';
import type { ContinueLink } from '../shared/landing';
import { servicePath } from '../shared/routes';

/**
 * The family's web sites, in the order the landing lists them: the grading site (its Japanese site
 * for ja-JP), coins, the dealer portal, power packs. The auction brands start their own sign-in with
 * a state of theirs (§4 step 4) and the mobile apps are not web sites, so neither is listed.
 */
const CONTINUE_BRANDS: Readonly<Record<'default' | 'ja-JP', readonly Brand[]>> = {
  default: ['psa', 'pcgs', 'enterprise', 'powerpacks'],
  'ja-JP': ['psajapan', 'pcgs', 'enterprise', 'powerpacks'],
};

/** The grading sites take the language as a path prefix (§2 locale path rule); the others none. */
const PATH_LOCALIZED: ReadonlySet<Brand> = new Set<Brand>(['psa']);

/**
 * Each link goes through this service's /signin for the brand, so the brand receives the session as
 * §4 hands it over; `r` is the brand's home in the collector's language where the site has one (§2),
 * and `lang` keeps the sign-in's own pages in it too (nothing for en-US, §2).
 */
export function continueLinks(brands: BrandDirectory, locale: Locale): ContinueLink[] {
  const list = CONTINUE_BRANDS[locale === 'ja-JP' ? 'ja-JP' : 'default'];
  return list.map((brand) => {
    const home = brands[brand].baseURL;
    const r = PATH_LOCALIZED.has(brand) ? localizeUrl(`${home}/`, locale, { style: 'path' }) : home;
    return {
      brand,
      name: BRAND_DEFINITIONS[brand].companyName,
      href: servicePath('signin', {
        b: brand,
        r,
        lang: locale === DEFAULT_LOCALE ? undefined : locale,
      }),
    };
  });
}

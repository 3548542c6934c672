import type { Translate } from '../../../src/shared/translate';
import { Button } from '../../ui/Button';
import { BrandLogo } from '../BrandLogo';
import type { PageFrameData } from '../shell-data';
import { simpleHeaderLogo } from './header-brand';

export interface SimpleHeaderProps {
  /**
   * Only the brand and the theme (for the logo's artwork) are read: the IdP's steps and message pages
   * have no full ShellData, and no theme.
   */
  readonly data: Pick<PageFrameData, 'brand' | 'theme'>;
  readonly t: Translate;
  /** Where the back button goes; no back button without it. */
  readonly backHref?: string;
}

/**
 * §2 simple header: the brand's logo (PSA, PCGS or Collectors, see header-brand.ts) and an optional
 * back button, a link styled as a button since it navigates. The logo is an image, not a link: the
 * simple header stands over flows (sign-in) that should not offer a way off to the brand's site.
 */
export function SimpleHeader({ data, t, backHref }: SimpleHeaderProps) {
  const logo = simpleHeaderLogo(data.brand);
  return (
    <header className="simple-site-header">
      <div className="simple-site-header__bar">
        {backHref ? (
          <Button
            href={backHref}
            size="sm"
            variant="secondary"
            className="simple-site-header__back"
          >
            {t('header.actions.back')}
          </Button>
        ) : null}
        <BrandLogo
          className="simple-site-header__logo"
          logo={logo}
          alt={t(`header.brandNames.${logo}`)}
          theme={data.theme}
        />
      </div>
    </header>
  );
}

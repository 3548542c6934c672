import { Injectable } from '@nestjs/common';
import { AppLogger } from './app-logger';
import type { Brand } from '../shared/brand';
import { BRAND_DEFINITIONS } from '../shared/brand-definitions';
import { AppMetrics } from '../metrics';

/**
 * Audit events (§4 After login step 1 "the sign-in event is recorded with the brand", §4 Sign-out
 * step 4 "Logout"): one structured log line each, with the brand and its source-site label, never a
 * token. Each is also counted in signins_total / signouts_total (issue 7; failures are counted by the
 * exception filter).
 */
@Injectable()
export class AuthEvents {
  constructor(
    private readonly logger: AppLogger,
    private readonly metrics: AppMetrics,
  ) {
    this.logger.setContext('AuthEvents');
  }

  /**
   * `how`: at the IdP, by reusing a live session, through a brand's own client (brand code redirect),
   * or from a valid `t` handed over on a page (issue 14 item 7).
   */
  signin(
    brand: Brand,
    subject: { sub?: string; collectorsId?: number },
    how: 'idp' | 'session' | 'brand-code' | 'token',
  ): void {
    this.logger.info(
      { event: 'signin', brand, sourceSite: BRAND_DEFINITIONS[brand].sourceSite, how, ...subject },
      'sign-in',
    );
    this.metrics.signin(brand);
  }

  logout(brand: Brand, subject: { sub?: string; collectorsId?: number }, signedIn: boolean): void {
    this.logger.info(
      {
        event: 'logout',
        brand,
        sourceSite: BRAND_DEFINITIONS[brand].sourceSite,
        signedIn,
        ...subject,
      },
      'sign-out',
    );
    this.metrics.signout(brand, signedIn);
  }
}

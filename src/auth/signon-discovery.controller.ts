import { Controller, Get, Header, Inject } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ROUTES } from '../shared/routes';
import { SignonDiscovery, signonDiscovery } from './signon-discovery';

/**
 * The brand contract's discovery document (docs/brand-contract.md, docs/openapi.yaml). Public and
 * the same for everyone, like the JWKS beside it: cached for five minutes, never rate limited (a
 * brand's back end may read it at every start).
 */
@Controller()
export class SignonDiscoveryController {
  /** Built once: it depends on the configuration alone. */
  private readonly document: SignonDiscovery;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.document = signonDiscovery(config);
  }

  @Get(ROUTES.signonDiscovery)
  @Header('Cache-Control', 'public, max-age=300')
  discovery(): SignonDiscovery {
    return this.document;
  }
}

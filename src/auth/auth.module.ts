import { Module } from '@nestjs/common';
import { AuthController } from './auth.controller';
import { BrandTokenService } from './brand-token.service';
import { HandoffCodes } from './handoff-codes';
import { HandoffExchange } from './handoff-exchange';
import { LoginStates } from './login-states';
import { SigninService } from './signin.service';
import { SignoutService } from './signout.service';
import { SignonDiscoveryController } from './signon-discovery.controller';
import { UnauthController } from './unauth.controller';

/**
 * The sign-in journey (§2, §4): /signin, the token and brand-code landings, the after-login decision,
 * the handoff to brands, sign-out and its landing, the unauthorized page, and the brand contract's
 * discovery document.
 */
@Module({
  controllers: [AuthController, UnauthController, SignonDiscoveryController],
  providers: [
    LoginStates,
    HandoffCodes,
    HandoffExchange,
    SigninService,
    SignoutService,
    BrandTokenService,
  ],
})
export class AuthModule {}

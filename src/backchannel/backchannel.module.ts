import { Module } from '@nestjs/common';
import { BackchannelController } from './backchannel.controller';
import { BackchannelNotifier } from './backchannel-notifier';
import { ServiceSigningKey } from './service-signing-key';

/**
 * OIDC Back-Channel Logout 1.0 both ways: logout tokens from the IdP end sessions here
 * (POST /backchannel-logout), and every session that ends here sends the brands that asked one
 * (the notifier implements session-ending.ts's port and registers itself at start).
 */
@Module({
  controllers: [BackchannelController],
  providers: [ServiceSigningKey, BackchannelNotifier],
  exports: [BackchannelNotifier],
})
export class BackchannelModule {}

import { Global, Module } from '@nestjs/common';
import { ResponseCookies } from './response-cookies';

/** The service's cookies, read and written through the policy table (§5, §9). */
@Global()
@Module({ providers: [ResponseCookies], exports: [ResponseCookies] })
export class CookiesModule {}

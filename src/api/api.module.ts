import { Module } from '@nestjs/common';
import { AppRouterFactory } from './app-router-factory';
import { TrpcMiddleware } from './trpc.middleware';

/**
 * §7 The application API: the tRPC router. configureApp mounts TrpcMiddleware at ROUTES.api
 * (/api/collectors-web/trpc) as an Express layer of its own.
 */
@Module({ providers: [AppRouterFactory, TrpcMiddleware], exports: [AppRouterFactory] })
export class ApiModule {}

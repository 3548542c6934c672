import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { ROUTES } from '../shared/routes';
import { AppRouterFactory } from './app-router-factory';
import { TrpcMiddleware } from './trpc.middleware';

/** §7 The application API: the tRPC router, mounted at ROUTES.api (/api/collectors-web/trpc). */
@Module({ providers: [AppRouterFactory], exports: [AppRouterFactory] })
export class ApiModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(TrpcMiddleware)
      .forRoutes({ path: `${ROUTES.api.slice(1)}/*path`, method: RequestMethod.ALL });
  }
}

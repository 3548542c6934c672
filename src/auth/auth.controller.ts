import { Body, Controller, Get, Headers, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Inject } from '@nestjs/common';
import { REDIRECT_POLICY } from '../brand/brand.module';
import type { RedirectPolicy } from '../brand/redirect-policy';
import { AppError } from '../errors/app-error';
import { BrandTokenService } from './brand-token.service';
import { HandoffExchange } from './handoff-exchange';
import { parseSigninQuery } from './signin-query';
import { SigninService } from './signin.service';
import { SignoutService } from './signout.service';

/**
 * §2 routes of the sign-in service. Handlers only translate HTTP: the services decide, and every
 * Location they return has passed the redirect policy.
 */
@Controller()
export class AuthController {
  constructor(
    private readonly signin: SigninService,
    private readonly signout: SignoutService,
    private readonly brandToken: BrandTokenService,
    private readonly handoff: HandoffExchange,
    @Inject(REDIRECT_POLICY) private readonly policy: RedirectPolicy,
  ) {}

  @Get('signin')
  async start(
    @Query() raw: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const parsed = parseSigninQuery(raw, this.policy);
    if (!parsed.ok) {
      // Never a redirect on bad input: the error page, in the collector's language (§8).
      const first = parsed.problems[0];
      throw new AppError(
        first?.code ?? 'BadRequest',
        parsed.problems.map((p) => p.message).join('; '),
      );
    }
    this.redirect(res, await this.signin.start(parsed.query, req, res));
  }

  @Get('handleloginredirect')
  async land(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.redirect(res, await this.signin.land(req, res));
  }

  @Get('handlebrandtokenredirect')
  async brand(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.redirect(res, await this.brandToken.handle(req, res));
  }

  @Get('logout/collectorsid')
  async logout(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.redirect(res, await this.signout.signOut(req, res));
  }

  @Get('handlelogoutredirect')
  async loggedOut(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.redirect(res, await this.signout.landed(req, res));
  }

  /** The server-to-server exchange of a one-time handoff code (README "Handoff"). */
  @Post('api/handoff/token')
  @HttpCode(200)
  async exchange(
    @Headers('authorization') authorization: unknown,
    @Body() body: Record<string, unknown> | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const result = await this.handoff.exchange(authorization, body?.code);
    res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    if (result.ok) {
      res.status(200).json(result.body);
      return;
    }
    if (result.status === 401) res.set('WWW-Authenticate', 'Basic realm="handoff"');
    res.status(result.status).json({ error: result.error, error_description: result.description });
  }

  /**
   * A bare 302: Express's res.redirect would also negotiate and write an HTML/text body that no
   * browser shows, on the busiest route of the service.
   */
  private redirect(res: Response, location: string): void {
    res.status(302).set('Cache-Control', 'no-store').location(location).end();
  }
}

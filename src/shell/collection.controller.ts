import { Controller, Get, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ShellRenderer } from '../render/shell-renderer';
import { ShellAccessCheck } from './shell-access';

/**
 * §2 /collection, the default landing after sign-in: the signed-in collector's account summary; a
 * collector the §2 rule keeps out goes to /signin with r, b, QTM_SID and QTM_UID (shell-access.ts).
 */
@Controller()
export class CollectionController {
  constructor(
    private readonly access: ShellAccessCheck,
    private readonly shell: ShellRenderer,
  ) {}

  @Get('collection')
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    const access = await this.access.check(req);
    res.set({ 'Cache-Control': 'no-store' });
    if (!access.allowed) {
      res.redirect(302, access.signinUrl);
      return;
    }
    this.shell.render(req, res, {
      page: 'collection',
      titleKey: 'collection.title',
      account: access.state,
      ...(access.referrerBrand ? { referrerBrand: access.referrerBrand } : {}),
    });
  }
}

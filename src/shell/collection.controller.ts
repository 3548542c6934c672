import { Controller, Get, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ShellRenderer } from '../render/shell-renderer';
import { ShellAccessCheck, signedInPageOptions } from './shell-access';

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
    const admission = await this.access.admit(req, res);
    if (!admission) return;
    this.shell.render(req, res, {
      page: 'collection',
      titleKey: 'collection.title',
      ...signedInPageOptions(admission),
    });
  }
}

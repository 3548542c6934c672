import { ROUTES } from '../shared/routes';
import { Controller, Get, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ShellRenderer } from '../render/shell-renderer';
import { signedInPageOptions } from './shell-access';
import { ShellDoor } from './shell-door';

/**
 * §2 /collection, the default landing after sign-in: the signed-in collector's account summary; a
 * collector the §2 rule keeps out goes to /signin with r, b, QTM_SID and QTM_UID (shell-access.ts).
 */
@Controller()
export class CollectionController {
  constructor(
    private readonly door: ShellDoor,
    private readonly shell: ShellRenderer,
  ) {}

  @Get(ROUTES.collection)
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    const admission = await this.door.admit(req, res);
    if (!admission) return;
    this.shell.render(req, res, {
      page: 'collection',
      titleKey: 'collection.title',
      ...signedInPageOptions(admission),
    });
  }
}

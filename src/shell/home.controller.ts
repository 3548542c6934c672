import { Controller, Get, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { localeOfRequest } from '../locale/request-locale-resolver';
import { localizedPath, ROUTES } from '../shared/routes';

/**
 * The bare address (`/`), which §2 does not list: a person who types it, or follows the README,
 * expects the product rather than a 404 (issue 33 item 4). It sends them to /collection, the §2
 * default landing, in the language the query asks for; /collection's own §2 rule then shows a
 * signed-in collector their landing and sends anyone else to sign-in, so `/` decides nothing itself.
 * Only the language is carried over: the §3 query (`t`, `r`, ...) belongs to /signin's own link.
 */
@Controller()
export class HomeController {
  @Get(ROUTES.home)
  open(@Req() req: Request, @Res() res: Response): void {
    res.redirect(302, localizedPath('collection', localeOfRequest(req)));
  }
}

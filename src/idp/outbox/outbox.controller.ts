import { Controller, ForbiddenException, Get, Header, Query, Req, Res } from '@nestjs/common';
import { createElement } from 'react';
import type { Request, Response } from 'express';
import { OutboxPage } from '../../../views/tools/OutboxPage';
import { PageRenderer } from '../../render/page-renderer';
import { themeOfRequest } from '../../render/request-theme';
import { sendPage } from '../../render/send-page';
import { DEFAULT_BRAND } from '../../shared/brand';
import { outboxRefusal } from './local-request';
import { OutboxSender, StoredMessage } from './outbox-sender';
import { ROUTES } from '../../shared/routes';

/**
 * The built-in outbox, readable by a developer and by tests (issue 3, item 7). Mounted only with the
 * embedded IdP, which only runs in local and dev, and answers only to requests from this machine to
 * this machine with no proxy in between (local-request.ts): these messages hold sign-in codes.
 */
@Controller(ROUTES.idpOutbox)
export class OutboxController {
  constructor(
    private readonly outbox: OutboxSender,
    private readonly pages: PageRenderer,
  ) {}

  @Get('messages.json')
  @Header('Cache-Control', 'no-store')
  async json(
    @Req() req: Request,
    @Query('to') to: unknown,
  ): Promise<{ messages: StoredMessage[] }> {
    this.assertLocal(req);
    return { messages: await this.outbox.list(typeof to === 'string' ? { to } : {}) };
  }

  /**
   * The messages as a page in the product's frame and theme (a newcomer's first look at the
   * product is often this page); in English, as the documentation that links it.
   */
  @Get()
  async page(@Req() req: Request, @Query('to') to: unknown, @Res() res: Response): Promise<void> {
    this.assertLocal(req);
    const messages = await this.outbox.list(typeof to === 'string' ? { to } : {});
    const frame = {
      ...this.pages.frame(DEFAULT_BRAND, 'en-US', req.originalUrl),
      theme: themeOfRequest(req),
    };
    const rows = messages.map((m) => ({
      sentAt: new Date(m.createdAt).toISOString(),
      channel: m.channel,
      to: m.to,
      purpose: m.purpose,
      subject: m.subject ?? '',
      text: m.text,
    }));
    const t = this.pages.translator('en-US');
    sendPage(
      res,
      200,
      this.pages.framed(frame, 'Outbox', createElement(OutboxPage, { t, frame, rows })),
    );
  }

  private assertLocal(req: Request): void {
    const refusal = outboxRefusal({
      ...(req.socket.remoteAddress ? { remoteAddress: req.socket.remoteAddress } : {}),
      ...(req.headers.host ? { host: req.headers.host } : {}),
      headers: req.headers,
    });
    if (refusal)
      throw new ForbiddenException(
        `the outbox is only readable from this machine, directly (refused: ${refusal})`,
      );
  }
}

import { Controller, ForbiddenException, Get, Header, Query, Req } from '@nestjs/common';
import { escapeHtml } from '../../render/escape-html';
import type { Request } from 'express';
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
  constructor(private readonly outbox: OutboxSender) {}

  @Get('messages.json')
  @Header('Cache-Control', 'no-store')
  async json(
    @Req() req: Request,
    @Query('to') to: unknown,
  ): Promise<{ messages: StoredMessage[] }> {
    this.assertLocal(req);
    return { messages: await this.outbox.list(typeof to === 'string' ? { to } : {}) };
  }

  @Get()
  @Header('Cache-Control', 'no-store')
  @Header('Content-Type', 'text/html; charset=utf-8')
  async page(@Req() req: Request, @Query('to') to: unknown): Promise<string> {
    this.assertLocal(req);
    const messages = await this.outbox.list(typeof to === 'string' ? { to } : {});
    const rows = messages
      .map(
        (m) =>
          `<tr><td>${new Date(m.createdAt).toISOString()}</td><td>${escapeHtml(m.channel)}</td><td>${escapeHtml(m.to)}</td><td>${escapeHtml(m.purpose)}</td><td>${escapeHtml(
            m.subject ?? '',
          )}</td><td>${escapeHtml(m.text)}</td></tr>`,
      )
      .join('');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Outbox</title><link rel="stylesheet" href="/static/css/signin.css"></head>
<body><main id="main" class="outbox"><h1>Outbox (local only)</h1><p>Email and SMS the embedded identity provider would have sent. Newest first.</p>
<table><thead><tr><th scope="col">Sent</th><th scope="col">Channel</th><th scope="col">To</th><th scope="col">Purpose</th><th scope="col">Subject</th><th scope="col">Text</th></tr></thead>
<tbody>${rows}</tbody></table></main></body></html>`;
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

import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { MessageSender, OutgoingMessage } from './message-sender';
import { MAX_OUTBOX_PAGE, OutboxSender } from './outbox-sender';

const file = path.join(os.tmpdir(), `outbox-${randomUUID()}.sqlite`);
let now = 1_700_000_000_000;
const clock = (): number => now;
let db: Database.Database;
let outbox: OutboxSender;

const email = (to: string, purpose: string, text: string): OutgoingMessage => ({
  channel: 'email',
  to,
  subject: 'Your code',
  text,
  purpose,
  locale: 'en-US',
});

beforeAll(() => {
  db = new Database(file);
  outbox = new OutboxSender(db, clock);
  outbox.migrate();
  outbox.migrate(); // idempotent
});

afterAll(() => {
  db.close();
});

describe(OutboxSender.name, () => {
  it('keeps every message sent, with an id and the time it was sent', async () => {
    const sender: MessageSender = outbox;
    await sender.send(email('ada@example.com', 'verify-email', 'Code 123456'));
    now += 1000;
    await sender.send({
      channel: 'sms',
      to: '+14155552671',
      text: 'Code 654321',
      purpose: 'mfa-sms',
      locale: 'fr-CA',
    });
    const [sms, mail] = await outbox.list();
    expect(sms).toEqual({
      id: expect.any(Number),
      channel: 'sms',
      to: '+14155552671',
      text: 'Code 654321',
      purpose: 'mfa-sms',
      locale: 'fr-CA',
      createdAt: now,
    });
    expect(mail).toEqual({
      id: expect.any(Number),
      ...email('ada@example.com', 'verify-email', 'Code 123456'),
      createdAt: now - 1000,
    });
    expect(sms?.id).toBeGreaterThan(mail?.id ?? Infinity);
  });

  it('lists newest first, for one recipient, with a limit', async () => {
    for (let i = 1; i <= 5; i++)
      await outbox.send(email('grace@example.com', 'mfa-email', `#${i}`));
    await outbox.send(email('someone@example.com', 'mfa-email', 'other'));
    const texts = async (options: { to?: string; limit?: number }) =>
      (await outbox.list(options)).map((m) => m.text);
    expect(await texts({ to: 'grace@example.com' })).toEqual(['#5', '#4', '#3', '#2', '#1']);
    expect(await texts({ to: 'grace@example.com', limit: 2 })).toEqual(['#5', '#4']);
    expect(await texts({ limit: 1 })).toEqual(['other']);
    expect(await texts({ to: 'nobody@example.com' })).toEqual([]);
  });

  describe('odd limits', () => {
    const to = 'limits@example.com';
    beforeAll(async () => {
      for (let i = 0; i < 8; i++) await outbox.send(email(to, 'verify-email', `${i}`));
    });
    // As a table: the limit asked for, how many of the recipient's 8 messages come back.
    const limits: ReadonlyArray<readonly [number, number]> = [
      [0, 1],
      [-5, 1],
      [2.9, 2],
      [Number.NaN, 8],
      [MAX_OUTBOX_PAGE * 10, 8],
    ];
    for (const [limit, count] of limits) {
      it(`clamps a limit of ${limit} (${count} back)`, async () => {
        expect(await outbox.list({ to, limit })).toHaveLength(count);
      });
    }
  });

  it('defaults to 50 messages', async () => {
    for (let i = 0; i < 60; i++)
      await outbox.send(email('bulk@example.com', 'verify-email', `${i}`));
    expect(await outbox.list()).toHaveLength(50);
    expect(await outbox.list({ to: 'bulk@example.com', limit: 100 })).toHaveLength(60);
  });

  it('finds the latest message to a recipient, optionally for one purpose', async () => {
    await outbox.send(email('linus@example.com', 'verify-email', 'first'));
    await outbox.send(email('linus@example.com', 'recover-password', 'second'));
    await outbox.send(email('linus@example.com', 'verify-email', 'third'));
    await outbox.send(email('linus@example.com', 'unlock-account', 'fourth'));
    expect((await outbox.latest('linus@example.com'))?.text).toBe('fourth');
    expect((await outbox.latest('linus@example.com', 'verify-email'))?.text).toBe('third');
    expect((await outbox.latest('linus@example.com', 'recover-password'))?.text).toBe('second');
    expect(await outbox.latest('linus@example.com', 'mfa-sms')).toBeUndefined();
    expect(await outbox.latest('nobody@example.com')).toBeUndefined();
  });

  it('keeps messages across a restart (a new sender on the same file)', async () => {
    await outbox.send(email('kept@example.com', 'verify-email', 'still here'));
    const reopened = new Database(file);
    try {
      const restarted = new OutboxSender(reopened, clock);
      restarted.migrate();
      expect((await restarted.latest('kept@example.com'))?.text).toBe('still here');
    } finally {
      reopened.close();
    }
  });
});

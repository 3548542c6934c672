import request from 'supertest';
import { RunningRedis, startRedis } from '../support/redis-server';
import { startTestApp } from '../support/test-app';

describe('rate limits on credential steps (DESIGN.md "Brute force")', () => {
  it('refuses the sign-in step posts of one address past the limit with 429, and nothing else', async () => {
    const t = await startTestApp({ RATE_LIMIT_CREDENTIAL_POSTS: '3/60' });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await request(t.url)
          .post('/idp/signin/some-interaction')
          .type('form')
          .send({ csrf: 'x' });
        expect(res.status).not.toBe(429);
      }
      const limited = await request(t.url)
        .post('/idp/signin/some-interaction')
        .type('form')
        .set('accept', 'text/html')
        .send({ csrf: 'x' });
      expect(limited.status).toBe(429);
      expect(limited.headers['content-type']).toMatch(/text\/html/);
      expect(limited.text).toContain('Too many attempts');
      expect(limited.headers['retry-after']).toEqual(expect.any(String));
      // Other routes are not limited.
      await request(t.url).get('/healthz').expect(200);
      await request(t.url).get('/idp/signin/some-interaction').expect(400);
    } finally {
      await t.close();
    }
  });

  it('counts in Redis, so two instances share one limit', async () => {
    const redis: RunningRedis = await startRedis();
    const env = {
      SESSION_STORE: 'redis',
      REDIS_URL: redis.url,
      RATE_LIMIT_CREDENTIAL_POSTS: '4/60',
    };
    const a = await startTestApp(env);
    const b = await startTestApp(env);
    try {
      const statuses: number[] = [];
      for (const t of [a, b, a, b, a])
        statuses.push((await request(t.url).post('/idp/signin/x').type('form').send({})).status);
      expect(statuses.slice(0, 4)).not.toContain(429);
      expect(statuses[4]).toBe(429);
    } finally {
      await a.close();
      await b.close();
      await redis.stop();
    }
  }, 30_000);
});

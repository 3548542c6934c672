import { errorSummary } from './error-summary';

describe(errorSummary.name, () => {
  it.each([
    ['a plain error', new Error('disk I/O error'), 'disk I/O error'],
    [
      'a cause chain with codes',
      new Error('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
          code: 'ECONNREFUSED',
        }),
      }),
      'fetch failed: connect ECONNREFUSED 127.0.0.1:9',
    ],
    [
      'a driver code missing from the message',
      Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
      'database or disk is full (SQLITE_FULL)',
    ],
    [
      'credentials in a URL',
      new Error('cannot reach redis://user:s3cret@10.0.0.1:6379'),
      'cannot reach redis://[redacted]@10.0.0.1:6379',
    ],
    ['something thrown that is not an Error', 'boom', 'boom'],
  ])('%s', (_name, error, summary) => {
    expect(errorSummary(error)).toBe(summary);
  });
});

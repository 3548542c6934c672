import { NETWORK_MESSAGES, networkFetch } from './network-fetch';

const response = new Response('{}', { status: 500 });

describe('API fetch: the three network messages of §8', () => {
  it('passes answers through, error statuses included', async () => {
    const fetch = networkFetch(() => Promise.resolve(response), 1000);
    await expect(fetch('/x')).resolves.toBe(response);
  });

  it("names a failed request 'Network request failed'", async () => {
    const fetch = networkFetch(() => Promise.reject(new TypeError('Failed to fetch')), 1000);
    await expect(fetch('/x')).rejects.toThrow(NETWORK_MESSAGES.failed);
  });

  it("names a request past its time 'Network request timed out'", async () => {
    const hang = (_: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () =>
          reject(new DOMException('aborted', 'AbortError')),
        ),
      );
    const fetch = networkFetch(hang, 5);
    await expect(fetch('/x')).rejects.toThrow(NETWORK_MESSAGES.timedOut);
  });

  it("names a request its caller cancelled 'Aborted'", async () => {
    const hang = (_: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () =>
          reject(new DOMException('aborted', 'AbortError')),
        ),
      );
    const controller = new AbortController();
    const pending = networkFetch(hang, 10_000)('/x', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow(NETWORK_MESSAGES.aborted);
    const already = new AbortController();
    already.abort();
    await expect(networkFetch(hang, 10_000)('/x', { signal: already.signal })).rejects.toThrow(
      NETWORK_MESSAGES.aborted,
    );
  });
});

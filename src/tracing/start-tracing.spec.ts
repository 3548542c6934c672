import { startTracing } from './start-tracing';
import { NO_TRACER, activeTracer } from './tracer';

describe(startTracing.name, () => {
  it('starts nothing and installs nothing when tracing is off', async () => {
    expect(await startTracing({ env: 'prod', tracing: { enabled: false } })).toBe(NO_TRACER);
    expect(activeTracer()).toBe(NO_TRACER);
  });

  it('leaves the work as it is with NO_TRACER: no span, no context to save or send', async () => {
    const headers: Record<string, string> = {};
    NO_TRACER.injectContext(headers);
    expect(headers).toEqual({});
    expect(NO_TRACER.saveContext()).toBeUndefined();
    await expect(NO_TRACER.inSpan('x', {}, () => Promise.resolve(7))).resolves.toBe(7);
    await expect(
      NO_TRACER.resume('00-x', 'y', () => Promise.reject(new Error('e'))),
    ).rejects.toThrow('e');
  });
});

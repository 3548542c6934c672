import { productionEnv } from '../../test/support/test-config';
import { ConfigError, RawEnv, parseConfig } from './config.schema';

/** Issue 17 items 2 and 4: what the schema decides about traces and log lines, and nothing more. */
describe(`${parseConfig.name}: LOG_FORMAT and the OTEL_* switch`, () => {
  it.each<[string, RawEnv, 'json' | 'pretty' | 'terminal']>([
    ['by the terminal in local (pretty on one, JSON otherwise)', {}, 'terminal'],
    ['JSON by default in dev', { APP_ENV: 'dev' }, 'json'],
    ['JSON by default in prod', productionEnv('prod'), 'json'],
    ['pretty when asked for', { LOG_FORMAT: 'pretty' }, 'pretty'],
    ['JSON when asked for, in local too', { LOG_FORMAT: 'json' }, 'json'],
    ['by the terminal for an empty value in local', { LOG_FORMAT: '' }, 'terminal'],
  ])('logs %s', (_name, env, format) => {
    expect(parseConfig(env).log.format).toBe(format);
  });

  it.each(['PRETTY', 'text', 'ecs'])('refuses LOG_FORMAT=%s, naming the variable', (value) => {
    expect(() => parseConfig({ LOG_FORMAT: value })).toThrow(ConfigError);
    expect(() => parseConfig({ LOG_FORMAT: value })).toThrow('LOG_FORMAT: must be json or pretty');
  });

  const ENDPOINT = 'http://collector:4318';
  it.each<[string, RawEnv, boolean]>([
    ['no endpoint', {}, false],
    ['an empty endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: ' ' }, false],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', { OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }, true],
    [
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${ENDPOINT}/v1/traces` },
      true,
    ],
    [
      'an endpoint in prod',
      { ...productionEnv('prod'), OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT },
      true,
    ],
    [
      'an endpoint and OTEL_SDK_DISABLED=true',
      { OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: 'TRUE' },
      false,
    ],
    [
      'an endpoint and OTEL_SDK_DISABLED=false',
      { OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: 'false' },
      true,
    ],
    [
      'an endpoint and OTEL_TRACES_EXPORTER=none',
      { OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_TRACES_EXPORTER: 'none' },
      false,
    ],
    [
      'an endpoint and OTEL_TRACES_EXPORTER=otlp',
      { OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_TRACES_EXPORTER: 'otlp' },
      true,
    ],
    [
      'only other signals configured',
      { OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: ENDPOINT, OTEL_SERVICE_NAME: 'signon' },
      false,
    ],
  ])('traces with %s: %s', (_name, env, enabled) => {
    expect(parseConfig(env).tracing).toEqual({ enabled });
  });
});

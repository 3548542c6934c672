import type { AppConfig } from '../config/app-config';
import { NO_TRACER, Tracer, installTracer } from './tracer';

/**
 * Starts OpenTelemetry when the configuration says tracing is on (an OTLP endpoint is set, issue 17
 * item 2) and installs it as the process's tracer; otherwise installs nothing and loads nothing.
 * Called by main.ts before the app is built, so that every seam finds the tracer when it is made.
 */
export async function startTracing(config: Pick<AppConfig, 'env' | 'tracing'>): Promise<Tracer> {
  if (!config.tracing.enabled) return NO_TRACER;
  // A dynamic import: the SDK (and every OpenTelemetry module under it) is required only here, so a
  // service without an endpoint neither loads it nor pays for its start-up (test/integration/tracing.spec.ts).
  const { OtelTracer } = await import('./otel-tracer');
  const tracer = OtelTracer.start({ environment: config.env });
  installTracer(tracer);
  return tracer;
}

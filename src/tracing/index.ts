// The public surface of tracing (docs/design.md "Style": index.ts is the only public surface). otel-tracer.ts is
// not exported: start-tracing.ts loads it on demand, and a static import would load OpenTelemetry.
export * from './tracer';
export { ATTRIBUTES, SPANS } from './span-names';
export { startTracing } from './start-tracing';
export { tracedFetch } from './traced-fetch';
export type { FetchFunction } from './traced-fetch';

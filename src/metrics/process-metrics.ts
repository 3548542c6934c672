import { Registry, collectDefaultMetrics } from 'prom-client';

let processRegistry: Registry | undefined;

/**
 * prom-client's default metrics (CPU, memory, heap, event-loop lag, GC, handles, file descriptors),
 * collected once per process. They describe the process, not one app, and their collectors (an
 * event-loop delay monitor sampling every 10 ms, a GC observer) cannot be stopped: made once, they are
 * shared by every app's registry, so tests that start many apps in one process do not pile them up.
 */
export function processMetricsRegistry(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

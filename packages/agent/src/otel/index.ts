/**
 * `@ptc/agent/otel`: an OpenTelemetry bridge. `createOtelListener` turns a run's events into spans
 * (run → turn → model call / tool call, child agents nested under the tool call that started them);
 * pass it as `onEvent`. It needs `@opentelemetry/api` (an optional peer) and nothing else: bring
 * your own SDK and exporter.
 */
export { combineListeners } from "./combine-listeners.js";
export { createOtelListener, type OtelListener, type OtelListenerOptions } from "./otel-listener.js";

// Runs one program per message in a worker thread, so that the bench can give up on a run that
// takes too long (a quadratic builtin at 100k rows runs for minutes and reads no clock): the bench
// terminates the worker. Each run gets a new copy of the data parsed from JSON, like a tool result.
import { parentPort, workerData } from "node:worker_threads";
import { answerText } from "./answer.mjs";
import { makeData } from "./data.mjs";

const { modulePath, rows } = workerData;
const { run, toJson } = await import(modulePath);
const data = makeData(rows);
const texts = Object.fromEntries(Object.entries(data).map(([key, value]) => [key, JSON.stringify(value)]));

parentPort.on("message", async ({ source, uses, limits, engine }) => {
  const context = Object.fromEntries(uses.map((key) => [key, JSON.parse(texts[key])]));
  const t0 = performance.now();
  const result = await run(source, engine === undefined ? { context, limits } : { context, limits, engine });
  const ms = performance.now() - t0;
  parentPort.postMessage(
    result.ok
      ? { ok: true, ms, answer: answerText(toJson(result.value)) }
      : { ok: false, ms, reason: result.error.reason, message: result.error.message },
  );
});
parentPort.postMessage({ ready: true });

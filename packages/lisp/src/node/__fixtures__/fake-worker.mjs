// A stand-in for the isolation worker that misbehaves on purpose: the program text it is sent
// names what it does, so tests can check that the host settles every run whatever a worker does.
import { parentPort } from "node:worker_threads";

function nested(depth) {
  let value = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

parentPort.on("message", (message) => {
  if (message.type !== "run") return;
  const run = message.run;
  switch (message.source) {
    case "silent": // never answers, not even "started"
      return;
    case "exit":
      parentPort.postMessage({ type: "started", run });
      process.exit(7);
      return;
    case "throw":
      parentPort.postMessage({ type: "started", run });
      throw new Error("the fake worker broke down");
    case "garbage":
      parentPort.postMessage({ type: "started", run });
      parentPort.postMessage(null);
      return;
    case "bogus":
      parentPort.postMessage({ type: "started", run });
      parentPort.postMessage({ type: "surprise", run });
      return;
    case "unreadable": // too deep for the host's stack to deserialize
      parentPort.postMessage({ type: "started", run });
      parentPort.postMessage({ type: "result", run, result: nested(5_000) });
      return;
    case "finished-silent": // says it finished, never sends the result
      parentPort.postMessage({ type: "started", run });
      parentPort.postMessage({ type: "finished", run });
      return;
    case "not-a-result":
      parentPort.postMessage({ type: "started", run });
      parentPort.postMessage({ type: "finished", run });
      parentPort.postMessage({ type: "result", run, result: 42 });
      return;
  }
});

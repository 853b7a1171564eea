/**
 * `--transcript FILE`: the run's own JSON Lines transcript (the run option `transcript` of
 * @ptc/agent: every model request and response, every event with its payloads, the final step),
 * appended to the file line by line as the run goes, so a crash still leaves what happened. The
 * agent already redacts key-shaped strings; the key the demo was given is scrubbed as well, whatever
 * its shape. Replay the file in a test with `replayTranscript` from `@ptc/agent/testing`.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { createJsonlTranscript, type TranscriptWriter } from "@ptc/agent";

export interface TranscriptFile {
  readonly path: string;
  /** Pass as the run's `transcript` option. */
  readonly write: TranscriptWriter;
}

export function createTranscriptFile(path: string, secrets: readonly string[]): TranscriptFile {
  writeFileSync(path, "");
  const hidden = secrets.filter((secret) => secret.length >= 4);
  const transcript = createJsonlTranscript((line) => {
    let scrubbed = line;
    for (const secret of hidden) scrubbed = scrubbed.split(secret).join("[redacted]");
    appendFileSync(path, `${scrubbed}\n`);
  });
  return { path, write: transcript.write };
}

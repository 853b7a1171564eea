/**
 * A transcript writer that collects JSON Lines in memory, for `run({ transcript })`. Write the
 * text wherever you like (a file: `fs.writeFileSync(path, transcript.text())`), and replay it
 * later with `replayTranscript` from `@ptc/agent/testing`.
 */
import { transcriptLine } from "./redact.js";
import type { TranscriptRecord, TranscriptWriter } from "./transcript-types.js";

export interface JsonlTranscript {
  /** Pass as the run's `transcript` option. */
  readonly write: TranscriptWriter;
  /** The records so far, one JSON line each. */
  readonly lines: readonly string[];
  /** The whole transcript as JSON Lines text (newline-terminated). */
  text(): string;
}

export function createJsonlTranscript(onLine?: (line: string) => void): JsonlTranscript {
  const lines: string[] = [];
  return {
    write: (record: TranscriptRecord) => {
      const line = transcriptLine(record);
      lines.push(line);
      onLine?.(line);
    },
    lines,
    text: () => (lines.length === 0 ? "" : `${lines.join("\n")}\n`),
  };
}

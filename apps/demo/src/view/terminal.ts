/**
 * Where the demo writes and how: an output stream (the process's stdout, or a buffer in tests),
 * colours when that stream is a terminal, and the few formatting helpers every view shares.
 */
import pc from "picocolors";

export type Colors = ReturnType<typeof pc.createColors>;

/** The slice of a Node stream the demo writes to. */
export interface Output {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/**
 * Colour only on a terminal, like picocolors' own check, but judged on the stream the demo
 * writes to: `NO_COLOR` wins, `FORCE_COLOR` forces, a pipe or a file stays plain (even on CI).
 */
export function colorsFor(
  output: Output,
  env: Readonly<Record<string, string | undefined>>,
  flag?: boolean,
): Colors {
  const enabled =
    flag ??
    (env.NO_COLOR !== undefined && env.NO_COLOR !== ""
      ? false
      : env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "" && env.FORCE_COLOR !== "0"
        ? true
        : output.isTTY === true && env.TERM !== "dumb");
  return pc.createColors(enabled);
}

export const formatNumber = (value: number): string => Math.round(value).toLocaleString("en-US");

export function formatMs(ms: number): string {
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 10_000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** One line, cut to `width` characters with an ellipsis. */
export function clip(text: string, width: number): string {
  const flat = text.replace(/\s*\n\s*/g, " ");
  return flat.length <= width ? flat : `${flat.slice(0, width - 1)}…`;
}

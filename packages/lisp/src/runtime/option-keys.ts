/**
 * Options objects of the host API are checked for keys nobody reads, as `limits` and
 * `createSession` check theirs (and @ptc/agent and @ptc/tool check their options): from plain
 * JavaScript, where TypeScript cannot help, a misspelled or misplaced key (`limit`, `timeoutMs` at
 * the top level, `limits` given to `createIsolatedSession`) was dropped without a word, and the
 * run went on under the defaults instead of the limits the host asked for.
 *
 * A key whose value is `undefined` reads as absent (as in `limits`): `{ ...options, extra:
 * undefined }` changes nothing. Inherited keys are not options (only own keys are read).
 */
import { nearestName } from "../analyzer/nearest-name.js";
import { LispError } from "../errors.js";
import { DEFAULT_LIMITS } from "./limits.js";

/** The keys `run` reads. */
export const RUN_OPTION_KEYS: readonly string[] = Object.freeze([
  "context",
  "tools",
  "limits",
  "session",
  "budget",
  "engine",
  "signal",
  "ledger",
  "pauseBefore",
]);

const hasOwn = Object.prototype.hasOwnProperty;

/** Whether `key` is one of RUN_OPTION_KEYS: a switch, a few comparisons of interned strings. */
function isRunOptionKey(key: string): boolean {
  switch (key) {
    case "context":
    case "tools":
    case "limits":
    case "session":
    case "budget":
    case "engine":
    case "signal":
    case "ledger":
    case "pauseBefore":
      return true;
    default:
      return false;
  }
}

/**
 * refuseUnknownOptions for the options of a run. Every run checks them, so this is part of a short
 * run's fixed cost: one for-in (no array of keys) and a switch per key, measured at about 70 ns a
 * run of three keys; only a key that is not a run's option goes on to the general check.
 */
export function refuseUnknownRunOptions(options: object): void {
  for (const key in options) if (!isRunOptionKey(key)) refuseUnknownOptions(options, "run", RUN_OPTION_KEYS);
}

/**
 * Throws LispError invalid_options for the first own key of `options` outside `known` (and
 * `hidden`, accepted but not listed: internal settings), naming it, the nearest known key or
 * where it belongs, and the known keys: `unknown run option "limit" (did you mean "limits"?);
 * the options are ...`. `misplaced` may say where a key belongs instead.
 */
export function refuseUnknownOptions(
  options: object,
  who: string,
  known: readonly string[],
  hidden: readonly string[] = [],
  misplaced: (key: string) => string | undefined = limitHint,
): void {
  for (const key in options) {
    if (known.includes(key) || !hasOwn.call(options, key) || hidden.includes(key)) continue;
    if ((options as Record<string, unknown>)[key] === undefined) continue;
    const where = misplaced(key);
    const suggestion = where === undefined ? nearestName(key, known) : undefined;
    const hint =
      where !== undefined ? `: ${where}` : suggestion === undefined ? "" : ` (did you mean "${suggestion}"?)`;
    throw new LispError(
      "invalid_options",
      `unknown ${who} option "${key}"${hint}; the options are ${listed(known)}`,
    );
  }
}

/** A limit given next to the options rather than inside `limits`. */
export function limitHint(key: string): string | undefined {
  return hasOwn.call(DEFAULT_LIMITS, key) ? `${key} is a limit, as in { limits: { ${key} } }` : undefined;
}

/** "a, b and c". */
function listed(keys: readonly string[]): string {
  return keys.length < 2 ? keys.join("") : `${keys.slice(0, -1).join(", ")} and ${keys[keys.length - 1]}`;
}

/**
 * Whether PTC-Lisp may turn programs into JavaScript with `new Function` in this realm. Pages whose
 * Content-Security-Policy lacks 'unsafe-eval', Chrome extension pages, Cloudflare Workers, Vercel
 * Edge and `node --disallow-code-generation-from-strings` forbid it; programs then run on the
 * general evaluator alone, with the same values, output, errors and positions.
 *
 * The host's word comes first. With code generation switched off (`setCodeGeneration("off")`, or
 * `PTC_LISP_CODEGEN=off` where there are environment variables), nothing in this package calls
 * `new Function`, not even to find out whether it may: a browser reports a blocked attempt to the
 * page's CSP report endpoint even when the attempt is caught. Left on "auto", one probe, when the
 * first run that could use generated code is prepared, finds out, and its answer stands for the
 * realm. A run with `engine: "general"` never probes and generates nothing.
 *
 * This module must never call `new Function` outside `probe`, and `probe` must never run while
 * the setting is "off".
 */

import { fastTierStats } from "./compiler/fast-tier.js";
import { environmentVariable } from "./environment.js";
import { LispError } from "./errors.js";

/** "auto": generate code where the platform allows it (found out once). "off": never. */
export type CodeGeneration = "auto" | "off";

/**
 * "off": the host switched code generation off. "unprobed": on "auto", and no run has needed to
 * know yet. "available" / "unavailable": what the probe found.
 */
export type CodeGenerationStatus = "off" | "unprobed" | "available" | "unavailable";

const SETTINGS: ReadonlySet<unknown> = new Set(["auto", "off"]);

let setting: CodeGeneration = environmentVariable("PTC_LISP_CODEGEN") === "off" ? "off" : "auto";
/** What the probe found; undefined until it has run. */
let probed: boolean | undefined;
/** False while a run that must generate nothing (`engine: "general"`) is the running one. */
let runPermits = true;

/**
 * Switches code generation off for every run in this realm from now on (or back to "auto"). Call
 * it before the first run: on a page with a strict Content-Security-Policy, the first run on
 * "auto" probes with `new Function`, and the browser reports that attempt as a violation.
 */
export function setCodeGeneration(value: CodeGeneration): void {
  if (!SETTINGS.has(value)) {
    throw new LispError(
      "invalid_options",
      `setCodeGeneration takes "auto" or "off", got ${typeof value === "string" ? `"${value}"` : String(value)}`,
    );
  }
  setting = value;
}

/** Whether runs may generate code here, and how that was decided. Never probes. */
export function codeGenerationStatus(): CodeGenerationStatus {
  if (setting === "off") return "off";
  return probed === undefined ? "unprobed" : probed ? "available" : "unavailable";
}

function probe(): boolean {
  fastTierStats.probes++;
  try {
    return new Function("return 1")() === 1;
  } catch {
    return false;
  }
}

/**
 * Whether a run that wants generated code may have it: the host's setting first, then the probe
 * (run once, the first time the answer matters).
 */
export function codeGenerationAllowed(): boolean {
  if (setting === "off") return false;
  probed ??= probe();
  return probed;
}

/**
 * Whether code may be generated now, for the running program: allowed in the realm (as already
 * found out: this never probes) and by the run's engine. Field readers ask before they are made
 * or used, the adaptive tier's promotions before each `new Function`.
 */
export function generatedCodePermitted(): boolean {
  return runPermits && setting === "auto" && probed === true;
}

/** Called whenever the running program changes (runtime/context.ts `enter`). */
export function permitGeneratedCode(permitted: boolean): void {
  runPermits = permitted;
}

/**
 * Matching on top of `Regex` (RE2, linear time): the shapes results take and the reference's
 * limits. A match is the matched string when the pattern has no groups, otherwise a vector
 * `[whole g1 g2 ...]`; a group that did not take part reads as "" unless it comes after the last
 * group that did, in which case it is left off (`(re-find #"(a)(b)?" "a")` is ["a" "a"]). Only the
 * first 32 KB (UTF-8) of an input is searched, as in the reference.
 */
import type { Matcher } from "re2js";
import { LispError } from "../../errors.js";
import { active } from "../../runtime/context.js";
import { Regex } from "../../values/regex.js";
import { describe } from "./str-text.js";

export const MAX_INPUT_BYTES = 32_768;

/** The longest prefix of `text` that fits in 32 KB of UTF-8, cut between code points. */
export function scanWindow(text: string): string {
  if (text.length * 3 <= MAX_INPUT_BYTES) return text;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let size = code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) size = 4;
    }
    if (bytes + size > MAX_INPUT_BYTES) return text.slice(0, i);
    bytes += size;
    if (size === 4) i++;
  }
  return text;
}

export function requireRegex(value: unknown, who: string): Regex {
  if (value instanceof Regex) return value;
  const hint =
    typeof value === "string" ? `; write #"${value}" or (re-pattern ${JSON.stringify(value)})` : "";
  throw new LispError("type_error", `${who} expects a regex, got ${describe(value)}${hint}`);
}

const cache = new Map<string, Regex>();
const CACHE_LIMIT = 128;

/** A regex value, or a string compiled once and remembered (extract takes pattern strings). */
export function regexOf(value: unknown, who: string): Regex {
  if (value instanceof Regex) return value;
  if (typeof value !== "string")
    throw new LispError("type_error", `${who} expects a regex or a pattern string, got ${describe(value)}`);
  let regex = cache.get(value);
  if (regex === undefined) {
    regex = Regex.compile(value);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(value, regex);
  }
  return regex;
}

/** Number of groups to report: up to the last group that took part in the match. */
function reportedGroups(matcher: Matcher, groups: number): number {
  let last = groups;
  while (last > 0 && matcher.group(last) === null) last--;
  return last;
}

/** The current match as the reference shapes it: a string, or [whole g1 ...]. */
export function matchValue(matcher: Matcher, groups: number): string | string[] {
  const whole = matcher.group(0) ?? "";
  const last = groups === 0 ? 0 : reportedGroups(matcher, groups);
  if (last === 0) return whole;
  const out = new Array<string>(last + 1);
  out[0] = whole;
  for (let i = 1; i <= last; i++) out[i] = matcher.group(i) ?? "";
  active.allocate(16 + 8 * out.length);
  return out;
}

export function findFirst(regex: Regex, text: string): string | string[] | null {
  const matcher = regex.compiled.matcher(scanWindow(text));
  return matcher.find() ? matchValue(matcher, matcher.groupCount()) : null;
}

export function matchWhole(regex: Regex, text: string): string | string[] | null {
  const matcher = regex.compiled.matcher(scanWindow(text));
  return matcher.matches() ? matchValue(matcher, matcher.groupCount()) : null;
}

export function findAll(regex: Regex, text: string): Array<string | string[]> {
  const input = scanWindow(text);
  const matcher = regex.compiled.matcher(input);
  const groups = matcher.groupCount();
  const out: Array<string | string[]> = [];
  while (matcher.find()) out.push(matchValue(matcher, groups));
  active.work(input.length);
  active.allocate(16 + 8 * out.length);
  return out;
}

/**
 * Pieces of `text` between matches. Groups a match captured are kept between the pieces, and
 * trailing empty pieces stay, as in the reference (Erlang's re:split); an empty match right where
 * the previous piece ended, with no groups, does not split.
 */
export function splitAll(regex: Regex, text: string): string[] {
  const input = scanWindow(text);
  const matcher = regex.compiled.matcher(input);
  const groups = matcher.groupCount();
  const out: string[] = [];
  let from = 0;
  while (matcher.find()) {
    const start = matcher.start();
    const end = matcher.end();
    const last = groups === 0 ? 0 : reportedGroups(matcher, groups);
    if (start === end && start === from && last === 0) continue;
    out.push(input.slice(from, start));
    for (let i = 1; i <= last; i++) out.push(matcher.group(i) ?? "");
    from = end;
  }
  out.push(input.slice(from));
  active.work(input.length);
  active.allocate(16 + 8 * out.length + input.length);
  return out;
}

/** Every match replaced by `replacement`, taken literally (no `$1` or `\1` substitution). */
export function replaceAll(regex: Regex, text: string, replacement: string): string {
  const matcher = regex.compiled.matcher(text);
  let out = "";
  let from = 0;
  while (matcher.find()) {
    out += text.slice(from, matcher.start()) + replacement;
    from = matcher.end();
  }
  if (from === 0 && out === "") return text;
  out += text.slice(from);
  active.work(text.length);
  active.allocate(out.length);
  return out;
}

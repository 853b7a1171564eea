/**
 * `{:keys [a b]}` over plain rows, the shape of nearly every destructuring fn over tool results.
 * The general map binder (destructure.ts) loops over its entries and reads `value[entry.name]` at
 * one access site that sees every key of every pattern, which V8 can only serve by its slowest
 * keyed lookup. Here a pattern of one to four plain names gets a binder written out for its size,
 * one read site per name: in a program running warm each site sees one key on rows of one shape.
 * The copies are deliberate (closures made from one function literal share their access sites),
 * so do not fold them into a loop. Anything but a plain object goes to the general binder, and a
 * key absent under its own name to the flexible lookup, so results and errors are the same.
 */
import type { Keyword } from "../values/keyword.js";
import { lookup } from "../values/map-access.js";
import type { Code } from "./code.js";
import type { Binder } from "./destructure.js";

/** How many map patterns got a binder of their own size when compiled (the tests read it). */
export const keyBinderStats = { shaped: 0 };

type Row = Record<string, unknown>;

const getPrototypeOf = Object.getPrototypeOf;
const ObjectPrototype = Object.prototype;

/** One plain name of the pattern: the property it reads, its keyword, the slot it fills. */
export interface KeyRead {
  readonly name: string;
  readonly key: Keyword;
  readonly slot: number;
}

/**
 * A binder written for `reads.length` names, or undefined when there is none for that many.
 * `general` binds whatever is not a plain object (nil, a LispMap, an error for anything else).
 */
export function shapedKeyBinder(reads: readonly KeyRead[], general: Binder): Binder | undefined {
  const binder = make(reads, general);
  if (binder !== undefined) {
    keyBinderStats.shaped++;
    shapedReads.set(binder, { reads, general });
  }
  return binder;
}

/** The names and general binder of each binder made here (keyedParameter reads them). */
const shapedReads = new WeakMap<Binder, { readonly reads: readonly KeyRead[]; readonly general: Binder }>();

/** Destructuring parameters bound in the let node itself (the tests read it). */
export const keyedParameterStats = { nodes: 0 };

/**
 * The node of `(let [{:keys [a b]} p] body)` with `p` the local in slot `from`: what the analyzer
 * wraps around the body of `(fn [{:keys [a b]}] body)`. The let node would call the binder and
 * then the body; both calls are made at the one site every such let shares, so once a few
 * programs ran V8 calls the binder there through the generic call path. Here the node reads the
 * names itself, as the binder would (the same reads, the same fallbacks, in the same order), and
 * calls only the body. Undefined for a binder not made here or of more than three names.
 *
 * keyedParameter1..3 are keys1..3 below written out again with the body's call at the end: a
 * shared helper would bring back the call this saves. Keep each pair alike.
 */
export function keyedParameter(binder: Binder, from: number, body: Code): Code | undefined {
  const shaped = shapedReads.get(binder);
  if (shaped === undefined) return undefined;
  const { reads, general } = shaped;
  let code: Code | undefined;
  if (reads.length === 1) code = keyedParameter1(reads[0] as KeyRead, general, from, body);
  else if (reads.length === 2)
    code = keyedParameter2(reads[0] as KeyRead, reads[1] as KeyRead, general, from, body);
  else if (reads.length === 3)
    code = keyedParameter3(
      reads[0] as KeyRead,
      reads[1] as KeyRead,
      reads[2] as KeyRead,
      general,
      from,
      body,
    );
  if (code !== undefined) keyedParameterStats.nodes++;
  return code;
}

function keyedParameter1(r0: KeyRead, general: Binder, from: number, body: Code): Code {
  const { name: n0, key: k0, slot: s0 } = r0;
  return (frame) => {
    const value = frame[from];
    if (
      typeof value === "object" &&
      value !== null &&
      (value as Row).constructor === Object &&
      getPrototypeOf(value) === ObjectPrototype
    ) {
      let v0 = (value as Row)[n0];
      if (v0 === undefined) v0 = lookup(value as Row, k0);
      frame[s0] = v0 === undefined ? null : v0;
    } else general(frame, value);
    return body(frame);
  };
}

function keyedParameter2(r0: KeyRead, r1: KeyRead, general: Binder, from: number, body: Code): Code {
  const { name: n0, key: k0, slot: s0 } = r0;
  const { name: n1, key: k1, slot: s1 } = r1;
  return (frame) => {
    const value = frame[from];
    if (
      typeof value === "object" &&
      value !== null &&
      (value as Row).constructor === Object &&
      getPrototypeOf(value) === ObjectPrototype
    ) {
      let v0 = (value as Row)[n0];
      if (v0 === undefined) v0 = lookup(value as Row, k0);
      frame[s0] = v0 === undefined ? null : v0;
      let v1 = (value as Row)[n1];
      if (v1 === undefined) v1 = lookup(value as Row, k1);
      frame[s1] = v1 === undefined ? null : v1;
    } else general(frame, value);
    return body(frame);
  };
}

function keyedParameter3(
  r0: KeyRead,
  r1: KeyRead,
  r2: KeyRead,
  general: Binder,
  from: number,
  body: Code,
): Code {
  const { name: n0, key: k0, slot: s0 } = r0;
  const { name: n1, key: k1, slot: s1 } = r1;
  const { name: n2, key: k2, slot: s2 } = r2;
  return (frame) => {
    const value = frame[from];
    if (
      typeof value === "object" &&
      value !== null &&
      (value as Row).constructor === Object &&
      getPrototypeOf(value) === ObjectPrototype
    ) {
      let v0 = (value as Row)[n0];
      if (v0 === undefined) v0 = lookup(value as Row, k0);
      frame[s0] = v0 === undefined ? null : v0;
      let v1 = (value as Row)[n1];
      if (v1 === undefined) v1 = lookup(value as Row, k1);
      frame[s1] = v1 === undefined ? null : v1;
      let v2 = (value as Row)[n2];
      if (v2 === undefined) v2 = lookup(value as Row, k2);
      frame[s2] = v2 === undefined ? null : v2;
    } else general(frame, value);
    return body(frame);
  };
}

function make(reads: readonly KeyRead[], general: Binder): Binder | undefined {
  switch (reads.length) {
    case 1:
      return keys1(reads[0] as KeyRead, general);
    case 2:
      return keys2(reads[0] as KeyRead, reads[1] as KeyRead, general);
    case 3:
      return keys3(reads[0] as KeyRead, reads[1] as KeyRead, reads[2] as KeyRead, general);
    case 4:
      return keys4(
        reads[0] as KeyRead,
        reads[1] as KeyRead,
        reads[2] as KeyRead,
        reads[3] as KeyRead,
        general,
      );
    default:
      return undefined;
  }
}

function keys1(r0: KeyRead, general: Binder): Binder {
  const { name: n0, key: k0, slot: s0 } = r0;
  return (frame, value) => {
    if (
      typeof value === "object" &&
      value !== null &&
      (value as Row).constructor === Object &&
      getPrototypeOf(value) === ObjectPrototype
    ) {
      let v0 = (value as Row)[n0];
      if (v0 === undefined) v0 = lookup(value as Row, k0);
      frame[s0] = v0 === undefined ? null : v0;
      return;
    }
    general(frame, value);
  };
}

function keys2(r0: KeyRead, r1: KeyRead, general: Binder): Binder {
  const { name: n0, key: k0, slot: s0 } = r0;
  const { name: n1, key: k1, slot: s1 } = r1;
  return (frame, value) => {
    if (
      typeof value === "object" &&
      value !== null &&
      (value as Row).constructor === Object &&
      getPrototypeOf(value) === ObjectPrototype
    ) {
      let v0 = (value as Row)[n0];
      if (v0 === undefined) v0 = lookup(value as Row, k0);
      frame[s0] = v0 === undefined ? null : v0;
      let v1 = (value as Row)[n1];
      if (v1 === undefined) v1 = lookup(value as Row, k1);
      frame[s1] = v1 === undefined ? null : v1;
      return;
    }
    general(frame, value);
  };
}

function keys3(r0: KeyRead, r1: KeyRead, r2: KeyRead, general: Binder): Binder {
  const { name: n0, key: k0, slot: s0 } = r0;
  const { name: n1, key: k1, slot: s1 } = r1;
  const { name: n2, key: k2, slot: s2 } = r2;
  return (frame, value) => {
    if (
      typeof value === "object" &&
      value !== null &&
      (value as Row).constructor === Object &&
      getPrototypeOf(value) === ObjectPrototype
    ) {
      let v0 = (value as Row)[n0];
      if (v0 === undefined) v0 = lookup(value as Row, k0);
      frame[s0] = v0 === undefined ? null : v0;
      let v1 = (value as Row)[n1];
      if (v1 === undefined) v1 = lookup(value as Row, k1);
      frame[s1] = v1 === undefined ? null : v1;
      let v2 = (value as Row)[n2];
      if (v2 === undefined) v2 = lookup(value as Row, k2);
      frame[s2] = v2 === undefined ? null : v2;
      return;
    }
    general(frame, value);
  };
}

function keys4(r0: KeyRead, r1: KeyRead, r2: KeyRead, r3: KeyRead, general: Binder): Binder {
  const { name: n0, key: k0, slot: s0 } = r0;
  const { name: n1, key: k1, slot: s1 } = r1;
  const { name: n2, key: k2, slot: s2 } = r2;
  const { name: n3, key: k3, slot: s3 } = r3;
  return (frame, value) => {
    if (
      typeof value === "object" &&
      value !== null &&
      (value as Row).constructor === Object &&
      getPrototypeOf(value) === ObjectPrototype
    ) {
      let v0 = (value as Row)[n0];
      if (v0 === undefined) v0 = lookup(value as Row, k0);
      frame[s0] = v0 === undefined ? null : v0;
      let v1 = (value as Row)[n1];
      if (v1 === undefined) v1 = lookup(value as Row, k1);
      frame[s1] = v1 === undefined ? null : v1;
      let v2 = (value as Row)[n2];
      if (v2 === undefined) v2 = lookup(value as Row, k2);
      frame[s2] = v2 === undefined ? null : v2;
      let v3 = (value as Row)[n3];
      if (v3 === undefined) v3 = lookup(value as Row, k3);
      frame[s3] = v3 === undefined ? null : v3;
      return;
    }
    general(frame, value);
  };
}

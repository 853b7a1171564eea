/**
 * What the memory budget charges for the values a program builds: rough sizes of their JS
 * representations, kept in one place so every builtin charges the same value the same way
 * (docs/sandbox.md explains the budget; docs/contributing-builtins.md when to charge). Host data
 * is never charged: a program can read 100,000 rows it did not build.
 *
 * Nothing here may change how a program behaves except by ending it at its memory limit.
 */
import { checkTextLength } from "../values/text-limit.js";
import { checkVectorLength } from "../values/vector-limit.js";
import { active } from "./context.js";

/** A vector (JS array): its header, and each slot. */
export const VECTOR_BYTES = 16;
export const VECTOR_SLOT_BYTES = 8;
/** A map: its header, and each entry (key, value and the hash table's share). */
export const MAP_BYTES = 32;
export const MAP_ENTRY_BYTES = 40;
/** A set: its header, and each member. */
export const SET_BYTES = 16;
export const SET_MEMBER_BYTES = 24;

/** A big integer (past 2^53): its header, and its digits. */
export const BIGINT_BYTES = 16;

/** Bytes of a new big integer of `bits` bits. */
export function bigintBytes(bits: number): number {
  return BIGINT_BYTES + Math.ceil(bits / 8);
}

/** Bytes of a new vector of `slots` items. */
export function vectorBytes(slots: number): number {
  return VECTOR_BYTES + VECTOR_SLOT_BYTES * slots;
}

/** Bytes of a new map of `entries` entries. */
export function mapBytes(entries: number): number {
  return MAP_BYTES + MAP_ENTRY_BYTES * entries;
}

/** Bytes of a new set of `members` members. */
export function setBytes(members: number): number {
  return SET_BYTES + SET_MEMBER_BYTES * members;
}

/** Charges a new vector of `slots` items to the running program. */
export function chargeVector(slots: number): void {
  active.allocate(vectorBytes(slots));
}

/**
 * As chargeVector, for a vector whose length no input bounds (a range, a concatenation), refusing
 * one longer than any vector may be (values/vector-limit.ts) whatever the budget. The budget is
 * charged first, so a run within the default budget (far below the cap's 8 bytes a slot) stops
 * as it always did.
 */
export function chargeUnboundedVector(slots: number): void {
  active.allocate(vectorBytes(slots));
  checkVectorLength(slots);
}

/**
 * Charges `slots` items about to be pushed onto a vector that will then hold `length`, refusing
 * a length past the vector cap before the push: a vector grown one item at a time is bounded by
 * nothing else but the budget, and V8 aborts the process when an array outgrows its largest
 * backing store (values/vector-limit.ts). One comparison beside the charge.
 */
export function chargeSlots(length: number, slots: number): void {
  // Charged first, as chargeUnboundedVector.
  active.allocate(VECTOR_SLOT_BYTES * slots);
  checkVectorLength(length);
}

/**
 * Charges a text of `length` characters that is about to be built (one byte a character),
 * refusing one longer than any text may be (values/text-limit.ts) whatever the budget.
 */
export function chargeNewText(length: number): void {
  checkTextLength(length);
  active.allocate(length);
}

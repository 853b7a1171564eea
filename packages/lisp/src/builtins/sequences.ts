/**
 * Sequences: access (first, nth, rest...), slicing (take, drop, partition...), construction (conj,
 * into, concat, range...), and whole-collection operations (count, sort, reverse, distinct...).
 *
 * Every sequence a function returns is a vector (PTC-Lisp has no lazy or list types). Strings are
 * sequences of graphemes, nil is an empty sequence, maps are sequences of [key value] entries in
 * key order where the reference allows it; functions that depend on position (first, nth, last,
 * reverse, sort...) refuse sets, and those that are positional only refuse maps too, with advice.
 *
 * Inputs are never mutated: a function returns either its input unchanged or a fresh array.
 * Memory is charged for what a persistent implementation would allocate: a fresh vector in full,
 * the added slots for conj/into/cons, nothing for a tail (rest, next, drop), as in the reference.
 *
 * The functions live in one file per idea: sequences-access.ts, sequences-slicing.ts,
 * sequences-building.ts, sequences-vectors.ts and sequences-ordering.ts. This file joins their
 * registry entries in the order the generated docs/language-reference.md lists them.
 */
import type { BuiltinDefinition } from "./definition.js";
import { sequenceAccessBuiltins } from "./sequences-access.js";
import { sequenceBuildingBuiltins } from "./sequences-building.js";
import { sequenceOrderingBuiltins } from "./sequences-ordering.js";
import { sequenceSlicingBuiltins } from "./sequences-slicing.js";
import { sequenceVectorBuiltins } from "./sequences-vectors.js";

export const sequencesBuiltins: BuiltinDefinition[] = [
  ...sequenceAccessBuiltins,
  ...sequenceSlicingBuiltins,
  ...sequenceBuildingBuiltins,
  ...sequenceVectorBuiltins,
  ...sequenceOrderingBuiltins,
];

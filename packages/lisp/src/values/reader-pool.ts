/**
 * Field readers for hot keywords where code may not be generated (`engine: "general"`, strict CSP,
 * edge runtimes). V8 keeps what a property access has seen per access site, and a site is a place
 * in the source: the shared `item[name]` of getField sees every keyword of every program and falls
 * to V8's slowest lookup (about five times a site that sees one name on rows of one shape). So
 * this file holds a fixed number of readers, each written out as its own function literal: the
 * copies below are deliberate, since closures made from one literal share one site. A hot keyword
 * takes the next free reader for good (the reader holds it, so at most READERS keywords are kept
 * alive); once all are taken, keywords keep the shared path. Nothing here is generated code.
 */
import type { FieldReader } from "./field-reader.js";
import type { Keyword } from "./keyword.js";

type ReaderMaker = (name: string, keyword: Keyword) => FieldReader;

const getPrototypeOf = Object.getPrototypeOf;
const ObjectPrototype = Object.prototype;

/**
 * The test in each reader is isPlainObject's fast path (plain-object.ts), also written out per
 * reader so that its `constructor` read sees only this keyword's rows: on such an object a name
 * Object.prototype lacks (a direct keyword's) can only be an own property.
 */
type Row = Record<string, unknown>;

// Sixteen copies of one reader, each its own access site (see above). Keep them identical.
const makers: readonly ReaderMaker[] = [
  (name, keyword) =>
    function read0(item, fallback) {
      if (
        typeof item === "object" &&
        item !== null &&
        (item as Row).constructor === Object &&
        getPrototypeOf(item) === ObjectPrototype
      ) {
        const found = (item as Row)[name];
        if (found !== undefined) return found;
      }
      return fallback(item, keyword);
    },
  (name, keyword) =>
    function read1(item, fallback) {
      if (
        typeof item === "object" &&
        item !== null &&
        (item as Row).constructor === Object &&
        getPrototypeOf(item) === ObjectPrototype
      ) {
        const found = (item as Row)[name];
        if (found !== undefined) return found;
      }
      return fallback(item, keyword);
    },
  (name, keyword) =>
    function read2(item, fallback) {
      if (
        typeof item === "object" &&
        item !== null &&
        (item as Row).constructor === Object &&
        getPrototypeOf(item) === ObjectPrototype
      ) {
        const found = (item as Row)[name];
        if (found !== undefined) return found;
      }
      return fallback(item, keyword);
    },
  (name, keyword) =>
    function read3(item, fallback) {
      if (
        typeof item === "object" &&
        item !== null &&
        (item as Row).constructor === Object &&
        getPrototypeOf(item) === ObjectPrototype
      ) {
        const found = (item as Row)[name];
        if (found !== undefined) return found;
      }
      return fallback(item, keyword);
    },
  (name, keyword) =>
    function read4(item, fallback) {
      if (
        typeof item === "object" &&
        item !== null &&
        (item as Row).constructor === Object &&
        getPrototypeOf(item) === ObjectPrototype
      ) {
        const found = (item as Row)[name];
        if (found !== undefined) return found;
      }
      return fallback(item, keyword);
    },
  (name, keyword) =>
    function read5(item, fallback) {
      if (
        typeof item === "object" &&
        item !== null &&
        (item as Row).constructor === Object &&
        getPrototypeOf(item) === ObjectPrototype
      ) {
        const found = (item as Row)[name];
        if (found !== undefined) return found;
      }
      return fallback(item, keyword);
    },
  (name, keyword) =>
    function read6(item, fallback) {
      if (
        typeof item === "object" &&
        item !== null &&
        (item as Row).constructor === Object &&
        getPrototypeOf(item) === ObjectPrototype
      ) {
        const found = (item as Row)[name];
        if (found !== undefined) return found;
      }
      return fallback(item, keyword);
    },
  (name, keyword) =>
    function read7(item, fallback) {
      if (
        typeof item === "object" &&
        item !== null &&
        (item as Row).constructor === Object &&
        getPrototypeOf(item) === ObjectPrototype
      ) {
        const found = (item as Row)[name];
        if (found !== undefined) return found;
      }
      return fallback(item, keyword);
    },
  (name, keyword) =>
    function read8(item, fallback) {
      if (
        typeof item === "object" &&
        item !== null &&
        (item as Row).constructor === Object &&
        getPrototypeOf(item) === ObjectPrototype
      ) {
        const found = (item as Row)[name];
        if (found !== undefined) return found;
      }
      return fallback(item, keyword);
    },
  (name, keyword) =>
    function read9(item, fallback) {
      if (
        typeof item === "object" &&
        item !== null &&
        (item as Row).constructor === Object &&
        getPrototypeOf(item) === ObjectPrototype
      ) {
        const found = (item as Row)[name];
        if (found !== undefined) return found;
      }
      return fallback(item, keyword);
    },
  (name, keyword) =>
    function read10(item, fallback) {
      if (
        typeof item === "object" &&
        item !== null &&
        (item as Row).constructor === Object &&
        getPrototypeOf(item) === ObjectPrototype
      ) {
        const found = (item as Row)[name];
        if (found !== undefined) return found;
      }
      return fallback(item, keyword);
    },
  (name, keyword) =>
    function read11(item, fallback) {
      if (
        typeof item === "object" &&
        item !== null &&
        (item as Row).constructor === Object &&
        getPrototypeOf(item) === ObjectPrototype
      ) {
        const found = (item as Row)[name];
        if (found !== undefined) return found;
      }
      return fallback(item, keyword);
    },
  (name, keyword) =>
    function read12(item, fallback) {
      if (
        typeof item === "object" &&
        item !== null &&
        (item as Row).constructor === Object &&
        getPrototypeOf(item) === ObjectPrototype
      ) {
        const found = (item as Row)[name];
        if (found !== undefined) return found;
      }
      return fallback(item, keyword);
    },
  (name, keyword) =>
    function read13(item, fallback) {
      if (
        typeof item === "object" &&
        item !== null &&
        (item as Row).constructor === Object &&
        getPrototypeOf(item) === ObjectPrototype
      ) {
        const found = (item as Row)[name];
        if (found !== undefined) return found;
      }
      return fallback(item, keyword);
    },
  (name, keyword) =>
    function read14(item, fallback) {
      if (
        typeof item === "object" &&
        item !== null &&
        (item as Row).constructor === Object &&
        getPrototypeOf(item) === ObjectPrototype
      ) {
        const found = (item as Row)[name];
        if (found !== undefined) return found;
      }
      return fallback(item, keyword);
    },
  (name, keyword) =>
    function read15(item, fallback) {
      if (
        typeof item === "object" &&
        item !== null &&
        (item as Row).constructor === Object &&
        getPrototypeOf(item) === ObjectPrototype
      ) {
        const found = (item as Row)[name];
        if (found !== undefined) return found;
      }
      return fallback(item, keyword);
    },
];

/** How many keywords can have a pooled reader. */
export const READERS = makers.length;

let taken = 0;

/** What the pool gave out, for tests that prove the pooled path ran. */
export const readerPoolStats = { taken: 0 };

/** A reader of its own for `keyword` (a direct one), or undefined when all are taken. */
export function pooledReader(keyword: Keyword): FieldReader | undefined {
  if (taken >= makers.length) return undefined;
  const reader = (makers[taken++] as ReaderMaker)(keyword.name, keyword);
  readerPoolStats.taken = taken;
  return reader;
}

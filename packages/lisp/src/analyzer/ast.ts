/**
 * The core language the analyzer reduces programs to. Macros (threading, cond, when, for...) are
 * gone by now, every name is resolved (a frame slot, a user var, a builtin, a data key), and every
 * static check has passed. The compiler turns these nodes into closures.
 */
import type { Position } from "../reader/form.js";

export type Pattern =
  | { readonly kind: "bind"; readonly slot: number; readonly name: string }
  | { readonly kind: "ignore" }
  | {
      readonly kind: "seq";
      readonly items: readonly Pattern[];
      readonly rest: Pattern | undefined;
      readonly position: Position;
    }
  | {
      readonly kind: "map";
      readonly entries: ReadonlyArray<{
        readonly key: unknown;
        readonly pattern: Pattern;
        readonly fallback: Node | undefined;
      }>;
      readonly whole: Pattern | undefined;
      readonly position: Position;
    };

export interface Binding {
  readonly pattern: Pattern;
  readonly init: Node;
}

export interface Capture {
  /** Slot in the frame where the function is created. */
  readonly outer: number;
  /** Slot in the function's own frame. */
  readonly inner: number;
}

/** Where `recur` jumps: a loop or a function body. Raw slots receive the new values. */
export interface RecurTarget {
  readonly rawSlots: readonly number[];
  readonly label: "loop" | "fn";
}

export interface ForClause {
  readonly kind: "bind" | "when" | "while" | "let";
  /** `bind`: the binding pattern and collection; `let`: the bindings; `when`/`while`: the test. */
  readonly pattern?: Pattern;
  readonly init?: Node;
  readonly bindings?: readonly Binding[];
  readonly test?: Node;
  readonly position: Position;
}

export type Node =
  | { readonly kind: "const"; readonly value: unknown; readonly position: Position }
  | { readonly kind: "local"; readonly slot: number; readonly name: string; readonly position: Position }
  /** A user var; `soft` reads as nil while unbound (only `or` operands, see analyze.ts). */
  | { readonly kind: "var"; readonly name: string; readonly position: Position; readonly soft?: boolean }
  | { readonly kind: "builtin"; readonly name: string; readonly position: Position }
  | { readonly kind: "data"; readonly key: string; readonly position: Position }
  | { readonly kind: "history"; readonly index: 1 | 2 | 3; readonly position: Position }
  | {
      readonly kind: "if";
      readonly test: Node;
      /** Not `then`/`else`: an object with a `then` would pass for a promise. */
      readonly consequent: Node;
      readonly alternative: Node;
      readonly position: Position;
    }
  | { readonly kind: "do"; readonly body: readonly Node[]; readonly position: Position }
  | {
      readonly kind: "let";
      readonly bindings: readonly Binding[];
      readonly body: Node;
      readonly position: Position;
    }
  | {
      readonly kind: "fn";
      readonly name: string | undefined;
      readonly selfSlot: number | undefined;
      /** Raw slots receiving the fixed arguments, then the rest argument when variadic. */
      readonly params: readonly Pattern[];
      readonly rest: Pattern | undefined;
      /** `[& {:keys [...]}]`: rest arguments are read as key/value pairs. */
      readonly restAsMap: boolean;
      readonly target: RecurTarget;
      readonly body: Node;
      readonly frameSize: number;
      readonly captures: readonly Capture[];
      /** Parameter text for printing (`#fn[x y]`). */
      readonly signature: string;
      readonly position: Position;
    }
  | {
      readonly kind: "loop";
      readonly bindings: readonly Binding[];
      readonly target: RecurTarget;
      readonly body: Node;
      readonly position: Position;
    }
  | {
      readonly kind: "recur";
      readonly target: RecurTarget;
      readonly args: readonly Node[];
      readonly position: Position;
    }
  | {
      readonly kind: "call";
      readonly callee: Node;
      readonly args: readonly Node[];
      readonly position: Position;
    }
  | {
      readonly kind: "tool";
      readonly name: string;
      readonly args: Node | undefined;
      readonly position: Position;
    }
  | {
      readonly kind: "def";
      readonly name: string;
      readonly value: Node;
      readonly once: boolean;
      readonly position: Position;
    }
  | { readonly kind: "and" | "or"; readonly items: readonly Node[]; readonly position: Position }
  | { readonly kind: "vector" | "set"; readonly items: readonly Node[]; readonly position: Position }
  | {
      readonly kind: "map";
      readonly entries: ReadonlyArray<readonly [Node, Node]>;
      readonly position: Position;
    }
  | { readonly kind: "return" | "fail"; readonly value: Node; readonly position: Position }
  | {
      readonly kind: "case";
      readonly value: Node;
      /** Test constants (by hash key) to clause index. */
      readonly table: ReadonlyMap<unknown, number>;
      readonly clauses: readonly Node[];
      readonly fallback: Node | undefined;
      readonly position: Position;
    }
  | {
      readonly kind: "for";
      readonly clauses: readonly ForClause[];
      readonly body: Node;
      /** `for` collects a vector; `doseq` returns nil. */
      readonly collect: boolean;
      readonly position: Position;
    }
  | { readonly kind: "budget"; readonly position: Position }
  | { readonly kind: "parallel-map"; readonly fn: Node; readonly coll: Node; readonly position: Position }
  | { readonly kind: "parallel-calls"; readonly thunks: readonly Node[]; readonly position: Position }
  | { readonly kind: "task"; readonly id: Node; readonly body: Node; readonly position: Position }
  | { readonly kind: "step-done"; readonly id: Node; readonly summary: Node; readonly position: Position }
  | { readonly kind: "task-reset"; readonly id: Node; readonly position: Position }
  | {
      readonly kind: "discovery";
      readonly operation: string;
      readonly args: readonly Node[];
      readonly position: Position;
    };

export type NodeKind = Node["kind"];

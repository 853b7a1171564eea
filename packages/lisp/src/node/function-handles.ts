/**
 * Functions across the worker boundary, for a worker that runs many programs against sessions the
 * host keeps (createIsolatedRunner). A function cannot be copied between threads, yet a session's
 * `(defn f ...)` must stay callable in the next program. So the worker keeps every function it
 * sends out in a table and sends a numbered handle with its print info; the host holds a
 * look-alike (it prints as `#fn[x]`, `fn?` is true, calling it on the host throws) that remembers
 * the handle and which worker issued it; sending the look-alike back to that worker gives the
 * program the original function again.
 *
 * A handle means nothing to another worker: after a hard stop replaced the worker, the look-alike
 * arrives marked lost, and calling it says the function went with the stopped worker. This module
 * must never let a program call a function that is not the one it names.
 */
import { LispError } from "../errors.js";
import type { FunctionInfo } from "../values/lisp-function.js";
import { infoData, lookAlikeFunction, type TransferOptions } from "../values/transfer.js";

type AnyFunction = (...args: unknown[]) => unknown;

interface Handle {
  readonly owner: object;
  readonly handle: number;
  readonly info: FunctionInfo | undefined;
}

/** Host side: the look-alikes and the handle each stands for. */
const handles = new WeakMap<AnyFunction, Handle>();

function handleOf(data: unknown): number | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const handle = (data as { handle?: unknown }).handle;
  return typeof handle === "number" && Number.isSafeInteger(handle) ? handle : undefined;
}

/** The info fields alone, without the transfer's own `handle` and `lost` marks. */
function infoOf(data: unknown): FunctionInfo | null {
  if (typeof data !== "object" || data === null) return null;
  const { handle: _handle, lost: _lost, ...info } = data as Record<string, unknown>;
  return info as unknown as FunctionInfo;
}

function calledOnTheHost(what: string): never {
  throw new LispError(
    "not_callable",
    `${what} lives in an isolated worker and cannot be called on the host; call it in a program`,
  );
}

function lostWithItsWorker(what: string): never {
  throw new LispError(
    "not_callable",
    `${what} was defined in another isolated worker (one stopped after a time limit, heap cap or cancel, or closed when its run ended), and it went with that worker; define it again`,
  );
}

function definedOnTheHost(what: string): never {
  throw new LispError(
    "not_callable",
    `${what} comes from a program run on the host, outside this isolated worker, and cannot be called in it; define it again in an isolated program`,
  );
}

/**
 * Host side, talking to the worker `owner`: decoding turns handles into look-alikes; encoding
 * sends a look-alike issued by `owner` back as its handle, and one issued by an earlier worker as
 * lost.
 */
export function hostFunctionOptions(owner: object): TransferOptions {
  return {
    decodeFunction: (data) => {
      const info = infoOf(data);
      const fn = lookAlikeFunction(info, calledOnTheHost) as AnyFunction;
      const handle = handleOf(data);
      if (handle !== undefined) handles.set(fn, { owner, handle, info: info ?? undefined });
      return fn;
    },
    encodeFunction: (fn, info) => {
      const known = handles.get(fn);
      if (known === undefined) return infoData(info);
      if (known.owner === owner) return { handle: known.handle };
      return { ...infoData(known.info), lost: true };
    },
  };
}

/** Worker side: the table of functions this worker sent out, by handle. */
export class FunctionTable {
  private readonly byFunction = new Map<AnyFunction, number>();
  private readonly byHandle = new Map<number, AnyFunction>();
  private next = 0;

  /** Options for values going to the host (functions get handles) and coming from it. */
  readonly options: TransferOptions = {
    encodeFunction: (fn, info) => {
      // A host function (no info) has nothing a program could call; it goes as a look-alike.
      if (info === undefined) return null;
      let handle = this.byFunction.get(fn);
      if (handle === undefined) {
        handle = ++this.next;
        this.byFunction.set(fn, handle);
        this.byHandle.set(handle, fn);
      }
      return { ...infoData(info), handle };
    },
    decodeFunction: (data) => {
      const handle = handleOf(data);
      const known = handle === undefined ? undefined : this.byHandle.get(handle);
      if (known !== undefined) return known;
      const lost = handle !== undefined || (data as { lost?: unknown } | null)?.lost === true;
      // Neither a handle nor marked lost: the function never came from a worker, so a program
      // the host ran itself defined it (say, with run and the same session).
      return lookAlikeFunction(infoOf(data), lost ? lostWithItsWorker : definedOnTheHost);
    },
  };
}

/**
 * The user namespace: what `def`, `defn` and `defonce` bind. It outlives a single program when a
 * session holds it, and is transactional: a program that fails leaves it exactly as it was.
 *
 * Each name has one cell, looked up when a program is compiled, so reading a var at run time is a
 * field read rather than a map lookup.
 */

export class Cell {
  value: unknown = null;
  bound = false;
  constructor(readonly name: string) {}
}

interface UndoEntry {
  readonly cell: Cell;
  readonly value: unknown;
  readonly bound: boolean;
}

export class Namespace {
  /**
   * Made on the first `cell`: most runs have no session and define nothing, and a Map (with its
   * table) was a measurable part of such a run's fixed cost.
   */
  private cells: Map<string, Cell> | undefined;
  /** Whether `begin` opened a transaction (then `undoLog` records, made on the first change). */
  private recording = false;
  private undoLog: UndoEntry[] | undefined;

  cell(name: string): Cell {
    this.cells ??= new Map();
    const cells = this.cells;
    let cell = cells.get(name);
    if (cell === undefined) {
      cell = new Cell(name);
      cells.set(name, cell);
    }
    return cell;
  }

  /** True when no name was ever looked up here: then none is bound either. */
  isEmpty(): boolean {
    return this.cells === undefined || this.cells.size === 0;
  }

  /** Names currently bound, sorted. */
  names(): string[] {
    // A new run's namespace is usually empty: no copies and sorts for nothing.
    if (this.cells === undefined || this.cells.size === 0) return [];
    return [...this.cells.values()]
      .filter((cell) => cell.bound)
      .map((cell) => cell.name)
      .sort();
  }

  has(name: string): boolean {
    return this.cells?.get(name)?.bound === true;
  }

  get(name: string): unknown {
    const cell = this.cells?.get(name);
    return cell?.bound === true ? cell.value : undefined;
  }

  /** Binds a name, remembering the previous state if a transaction is open. */
  define(cell: Cell, value: unknown): void {
    if (this.recording) {
      this.undoLog ??= [];
      this.undoLog.push({ cell, value: cell.value, bound: cell.bound });
    }
    cell.value = value;
    cell.bound = true;
  }

  /** Starts recording changes so they can be rolled back. */
  begin(): void {
    this.recording = true;
    this.undoLog = undefined;
  }

  /** Keeps the changes made since `begin`; returns the names that changed. */
  commit(): string[] {
    const log = this.undoLog;
    this.recording = false;
    this.undoLog = undefined;
    if (log === undefined || log.length === 0) return [];
    const changed = new Set(log.map((entry) => entry.cell.name));
    return [...changed].sort();
  }

  /** Restores every binding changed since `begin`. */
  rollback(): void {
    const log = this.undoLog;
    this.recording = false;
    this.undoLog = undefined;
    if (log === undefined) return;
    for (let i = log.length - 1; i >= 0; i--) {
      const entry = log[i] as UndoEntry;
      entry.cell.value = entry.value;
      entry.cell.bound = entry.bound;
    }
  }
}

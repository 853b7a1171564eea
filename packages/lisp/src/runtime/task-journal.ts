/**
 * The task journal: what `(task "id" expr)` recorded, task id to result, kept by a session across
 * programs. Like the user namespace it is transactional: a run opens a transaction, and a run that
 * fails puts the journal back as it was (same entries, same order), so a failed program never
 * leaves half of its tasks behind.
 *
 * A journal holds a few entries (one per task of an agent's plan), so the transaction keeps a copy
 * of them, made at the run's first change only: a run that records nothing copies nothing.
 */

export class TaskJournal {
  private readonly entries = new Map<string, unknown>();
  /** Inside a transaction: whether something changed yet. */
  private open = false;
  /** The entries as the transaction found them, once it changed something; null otherwise. */
  private before: [string, unknown][] | null = null;

  has(id: string): boolean {
    return this.entries.has(id);
  }

  get(id: string): unknown {
    return this.entries.get(id);
  }

  /** Entries in the order they were recorded. */
  list(): IterableIterator<[string, unknown]> {
    return this.entries.entries();
  }

  set(id: string, value: unknown): void {
    this.changing();
    this.entries.set(id, value);
  }

  delete(id: string): void {
    if (!this.entries.has(id)) return;
    this.changing();
    this.entries.delete(id);
  }

  /** Starts a transaction: changes from now on can be rolled back. */
  begin(): void {
    this.open = true;
    this.before = null;
  }

  /** Keeps the changes made since `begin`. */
  commit(): void {
    this.open = false;
    this.before = null;
  }

  /**
   * Entries recorded since `begin` (new ids, or ids whose result changed), in the order recorded.
   * Read before `rollback`: they are what a failed run completed and is about to forget.
   */
  recordedSinceBegin(): [string, unknown][] {
    const before = this.before;
    if (before === null) return [];
    const earlier = new Map(before);
    const recorded: [string, unknown][] = [];
    for (const [id, value] of this.entries) {
      if (!earlier.has(id) || !Object.is(earlier.get(id), value)) recorded.push([id, value]);
    }
    return recorded;
  }

  /** Puts back the entries as they were at `begin`. */
  rollback(): void {
    const before = this.before;
    this.open = false;
    this.before = null;
    if (before === null) return;
    this.entries.clear();
    for (const [id, value] of before) this.entries.set(id, value);
  }

  private changing(): void {
    if (this.open && this.before === null) this.before = [...this.entries];
  }
}

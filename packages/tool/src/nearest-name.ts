/**
 * "Did you mean": the known name nearest to a misspelled one, for errors about options and keys
 * (`exposed` → `expose`, `maxTurn` → `maxTurns`). `-` and `_` count as the same character, and
 * case is ignored. It only suggests; it never decides what a name means.
 *
 * @ptc/lisp keeps its own copy for the names programs use (analyzer/nearest-name.ts): neither
 * package depends on the other.
 */

/** Edit distance with transpositions (optimal string alignment), stopping early past `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previousRow: number[] = [];
  let row: number[] = Array.from({ length: b.length + 1 }, (_, index) => index);
  let beforePrevious: number[] = [];
  for (let i = 1; i <= a.length; i++) {
    beforePrevious = previousRow;
    previousRow = row;
    row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (previousRow[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previousRow[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, (beforePrevious[j - 2] as number) + 1);
      row[j] = value;
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
  }
  return row[b.length] as number;
}

function normalized(name: string): string {
  return name.toLowerCase().replaceAll("_", "-");
}

/**
 * The candidate nearest to `name`, if one is near enough to be a likely typo: at most one edit
 * for short names, up to a third of the length for longer ones, nothing below three characters
 * (except a name that differs only in `-`/`_` or case). When none is that near, a candidate
 * that one of the two extends (`timeoutMs` → `timeout`, `memory` → `memoryLimit`) is suggested. Ties go to the first
 * candidate in sorted order, so the suggestion is stable.
 */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  const target = normalized(name);
  const limit = target.length < 3 ? 0 : Math.max(1, Math.floor(target.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  let extension: string | undefined;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const other = normalized(candidate);
    const related = other.startsWith(target) || target.startsWith(other);
    if (
      related &&
      Math.min(target.length, other.length) >= 4 &&
      (extension === undefined || candidate < extension)
    )
      extension = candidate;
    const distance = editDistance(target, other, bestDistance);
    if (distance < bestDistance || (distance === bestDistance && best !== undefined && candidate < best)) {
      if (distance <= limit) {
        best = candidate;
        bestDistance = distance;
      }
    }
  }
  return best ?? extension;
}

/**
 * "Did you mean": the known name nearest to a misspelled one, for the errors a model reads
 * (unknown function, unknown tool) and the warning on a `data/` key the context lacks. `-` and
 * `_` count as the same character, since models mix them up across naming conventions.
 *
 * It only suggests; it never decides what a name means.
 */

/** Edit distance with transpositions (optimal string alignment), stopping early past `limit`. */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
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

/** Treats `-` and `_` alike, and case too. */
function normalized(name: string): string {
  return name.toLowerCase().replaceAll("_", "-");
}

/**
 * The candidate nearest to `name`, if one is near enough to be a likely typo: at most one edit
 * for short names, up to a third of the length for longer ones, nothing below three characters
 * (except a name that differs only in `-`/`_` or case). Ties go to the first candidate
 * in sorted order, so the suggestion is stable.
 */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  const target = normalized(name);
  // One or two characters are too short to guess from: any short name is one edit away.
  const limit = target.length < 3 ? 0 : Math.max(1, Math.floor(target.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const distance = editDistance(target, normalized(candidate), bestDistance);
    if (distance < bestDistance || (distance === bestDistance && best !== undefined && candidate < best)) {
      if (distance <= limit) {
        best = candidate;
        bestDistance = distance;
      }
    }
  }
  return best;
}

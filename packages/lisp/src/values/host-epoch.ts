/**
 * The host-data epoch: what this package remembers of a host object (values/map-entries.ts) is
 * good until host code may have run and changed it. The epoch ends when a run starts, when a tool
 * call returns and when the host calls `format`, `toJson`, `equals`...; each of those calls
 * `hostDataMayHaveChanged`. Its own module so that the walk meter and the entries cache can both
 * use it without importing each other.
 */

let epoch = 0;

/** Ends the epoch: host objects read from now on are read afresh. */
export function hostDataMayHaveChanged(): void {
  epoch++;
}

/** The current epoch. */
export function hostEpoch(): number {
  return epoch;
}

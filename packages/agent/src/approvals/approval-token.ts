/**
 * The random part of a run's approval ids (`<token>_<n>`): an id of one paused run is never a
 * valid id of another, so a decision meant for one run cannot approve a call of another.
 */
export function approvalToken(): string {
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  return `apv${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

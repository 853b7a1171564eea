/**
 * Character limits count code points, so a cut never splits a surrogate pair into half an emoji.
 */
export function truncateChars(text: string, limit: number): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  const codePoints = Array.from(text);
  if (codePoints.length <= limit) return { text, truncated: false };
  return { text: codePoints.slice(0, limit).join(""), truncated: true };
}

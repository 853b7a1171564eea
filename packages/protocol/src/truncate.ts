/**
 * Character limits count code points, so a cut never splits a surrogate pair into half an emoji.
 */
export function truncateChars(text: string, limit: number): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  // Walks `limit` code points and no further: a name or value may be megabytes long.
  let end = 0;
  for (let seen = 0; seen < limit && end < text.length; seen++) {
    const code = text.charCodeAt(end);
    const low = end + 1 < text.length ? text.charCodeAt(end + 1) : 0;
    end += code >= 0xd800 && code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
  }
  return end >= text.length ? { text, truncated: false } : { text: text.slice(0, end), truncated: true };
}

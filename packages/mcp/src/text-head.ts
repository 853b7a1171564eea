/**
 * The start of a text cut for a message. A cut between the two UTF-16 halves of a character
 * outside the Basic Multilingual Plane (an emoji) would leave a lone surrogate, which is not
 * Unicode: a model's API may refuse the request, or read U+FFFD. So the cut falls before the pair.
 * (tool-catalog.ts's summaries cut the same way.)
 */
export function textHead(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const last = text.charCodeAt(maxChars - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? maxChars - 1 : maxChars);
}

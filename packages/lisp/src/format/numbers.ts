/**
 * Number text. Two styles, as in the reference: `full` for `str` and the readable printer
 * (shortest round-trip digits, Java/Clojure layout: 2.0, 0.1, 1.0E7, 1.23E-4), and `compact` for
 * what the model reads in previews, `pr-str` and `println` (at most 10 decimals, so 1.1 + 2.2
 * shows as 3.3 rather than 3.3000000000000003).
 */

export function specialFloatText(value: number): string | undefined {
  if (Number.isNaN(value)) return "##NaN";
  if (value === Number.POSITIVE_INFINITY) return "##Inf";
  if (value === Number.NEGATIVE_INFINITY) return "##-Inf";
  return undefined;
}

/** Java's Double.toString layout over JS's shortest round-trip digits. */
export function floatFull(value: number): string {
  const special = specialFloatText(value);
  if (special !== undefined) return special;
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    const text = String(value);
    return text.includes(".") ? text : `${text}.0`;
  }
  // Scientific: d.dddE±n with at least one fraction digit.
  const [mantissa, exponent] = value.toExponential().split("e") as [string, string];
  const digits = mantissa.includes(".") ? mantissa : `${mantissa}.0`;
  return `${digits}E${Number(exponent)}`;
}

/** Fixed notation, at most 10 decimals, trailing zeros trimmed (one kept). */
export function floatCompact(value: number): string {
  const special = specialFloatText(value);
  if (special !== undefined) return special;
  if (Math.abs(value) >= 1e21) return floatFull(value);
  let text = value.toFixed(10);
  if (text.includes(".")) {
    text = text.replace(/0+$/, "");
    if (text.endsWith(".")) text += "0";
  }
  if (text === "-0.0" && !Object.is(value, -0)) text = "0.0";
  return text;
}

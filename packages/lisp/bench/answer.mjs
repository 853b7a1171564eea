// Answers as comparable text: JSON with sorted keys and numbers rounded to 1e-6, so that a Lisp
// value (through toJson) and a JavaScript value compare equal when they say the same thing.

export function answerText(value) {
  return JSON.stringify(normalize(value));
}

function normalize(value) {
  if (typeof value === "number") return Math.round(value * 1e6) / 1e6;
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, normalize(value[key])]),
    );
  }
  return value;
}

/**
 * Removes the API key from text that ends up in an error. Some servers echo the credentials they
 * rejected; an error message is logged, shown and sent to telemetry, so it must never carry the key.
 */
export type Redact = (text: string) => string;

export function createRedactor(secret: string | undefined): Redact {
  if (secret === undefined || secret === "") return (text) => text;
  return (text) => text.split(secret).join("[redacted]");
}

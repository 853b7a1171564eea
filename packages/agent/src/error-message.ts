/** The text of anything thrown: an Error's message, a string as is, other values as JSON. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message === "" ? error.name : error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

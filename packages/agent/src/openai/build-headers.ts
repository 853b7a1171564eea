/**
 * The request headers: JSON content, bearer auth when there is a key, the organization, then the
 * user's headers, which replace any of ours with the same name in any letter case.
 */
export interface HeaderSettings {
  readonly apiKey: string | undefined;
  readonly organization: string | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;
  readonly streaming: boolean;
}

export function buildHeaders(settings: HeaderSettings): Record<string, string> {
  // Keyed by lower-case name so a user's `authorization` replaces our `Authorization`.
  const merged = new Map<string, [name: string, value: string]>();
  const set = (name: string, value: string) => merged.set(name.toLowerCase(), [name, value]);
  set("Content-Type", "application/json");
  set("Accept", settings.streaming ? "text/event-stream" : "application/json");
  if (settings.apiKey !== undefined) set("Authorization", `Bearer ${settings.apiKey}`);
  if (settings.organization !== undefined && settings.organization !== "") {
    set("OpenAI-Organization", settings.organization);
  }
  for (const [name, value] of Object.entries(settings.headers ?? {})) set(name, value);
  return Object.fromEntries(merged.values());
}

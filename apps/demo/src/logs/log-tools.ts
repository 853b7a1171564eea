/**
 * The tools of the log-triage agent. `search_logs` is the big one: `expose: "both"` and
 * `cache: true` with a metadata preview, so a native call shows the model only the result's shape
 * while the rows wait in the run's cache for a `lisp_eval` program. The other two are small and
 * need no preview.
 */
import type { AgentToolDefinition } from "@ptc/agent";
import type { LogLine, LogStore } from "./log-data.js";
import { matchesFilter, parseLogQuery, parseSince } from "./log-query.js";
import { findService, SERVICES } from "./services.js";

export const SEARCH_LOGS_SIGNATURE =
  "(query :string, since :string?) -> [{id :int, timestamp :string, service :string, level :string, code :int, message :string}]";

/** Every matching line, newest first. Without `since`, the whole 24 hours the store keeps. */
export function searchLogs(store: LogStore, args: { query?: unknown; since?: unknown }): LogLine[] {
  if (typeof args.query !== "string")
    throw new Error('search_logs: query must be a string, e.g. "error code 42"');
  if (args.since !== undefined && args.since !== null && typeof args.since !== "string") {
    throw new Error('search_logs: since must be a string such as "1h"');
  }
  const filter = parseLogQuery(args.query);
  const from =
    typeof args.since === "string" && args.since.trim() !== "" ? parseSince(args.since, store.now) : 0;
  const found: LogLine[] = [];
  for (let index = store.lines.length - 1; index >= 0; index--) {
    const line = store.lines[index] as LogLine;
    if (Date.parse(line.timestamp) < from) break;
    if (matchesFilter(line, filter)) found.push(line);
  }
  return found;
}

export function createLogTools(store: LogStore): Record<string, AgentToolDefinition> {
  return {
    search_logs: {
      signature: SEARCH_LOGS_SIGNATURE,
      description:
        'Search the last 24 hours of application logs, newest first. Every word of query must match: a level (error, warn, info), a code ("code 42"), a service name, or words of the message. since limits how far back to look: "1h", "30m", "6h" or an ISO time.',
      expose: "both",
      cache: true,
      nativeResult: { preview: "metadata" },
      execute: (args) => searchLogs(store, args),
    },
    get_service_owner: {
      signature: "(service :string) -> {service :string, team :string, oncall :string, slack :string}",
      description: "The team that owns a service, who is on call for it now, and their Slack channel.",
      expose: "native",
      execute: ({ service }: { service?: unknown }) => {
        const found = typeof service === "string" ? findService(service) : undefined;
        if (found === undefined) {
          throw new Error(
            `get_service_owner: unknown service ${JSON.stringify(service)}; known services: ${SERVICES.map((each) => each.name).join(", ")}`,
          );
        }
        return { service: found.name, team: found.team, oncall: found.oncall, slack: found.slack };
      },
    },
    list_services: {
      signature: "() -> [{name :string, tier :int, team :string, oncall :string}]",
      description: "Every service with its tier (1 pages at night), owning team and who is on call.",
      expose: "both",
      execute: () =>
        SERVICES.map((service) => ({
          name: service.name,
          tier: service.tier,
          team: service.team,
          oncall: service.oncall,
        })),
    },
  };
}

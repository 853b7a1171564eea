/**
 * A paused run as JSON data, and back: the loop state (conversation, budgets spent, memory, tool
 * cache, turns and calls so far), the run's context, and the turn it paused in. Everything goes
 * through the step's one JSON conversion (json/to-json-safe.ts), so what comes back is what a
 * step would show: memory and `*1 *2 *3` as data (keywords as text), functions left out (they
 * have no JSON form: `lostFunctions` names them), BigInts as their text.
 *
 * Reading a snapshot checks its shape and throws `SnapshotError` at the first thing that is not
 * what a snapshot holds: a state that did not come from `run` (or was edited) is refused before
 * anything of it is used.
 */
import type { LedgerEntry } from "@ptc/lisp";
import type { JsonValue } from "@ptc/tool";
import { createJsonSafe } from "../json/to-json-safe.js";
import { externalizeMemory } from "../loop/host-value.js";
import type { LoopState } from "../loop/run-types.js";
import { DataProvenance, type ProvenanceSnapshot } from "../minimization/data-provenance.js";
import type { Message } from "../model/model-types.js";
import type { NormalizedResponse, NormalizedToolCall } from "../model/normalize-response.js";
import type { Step, ToolCache, ToolCallRecord, Turn, TurnType } from "../step/step-types.js";
import { RunToolCache } from "../tools/tool-cache.js";
import type { AnsweredCall, TurnAt, TurnPause, WaitingCall } from "./paused-turn.js";

export class SnapshotError extends Error {
  override readonly name = "SnapshotError";
}

/** The paused turn in the snapshot: where it stood, what its attempt left, which calls wait. */
export interface PausedTurnSnapshot {
  readonly at: TurnAt;
  readonly layer: TurnPause["layer"];
  readonly answered?: readonly (AnsweredCall | null)[];
  readonly ledger?: readonly LedgerEntry[];
  readonly records?: readonly ToolCallRecord[];
  readonly waiting: readonly WaitingCall[];
}

/** What a snapshot restores to. */
export interface RestoredRun {
  readonly agentPrompt: string;
  readonly context: Readonly<Record<string, unknown>>;
  readonly descriptions: Readonly<Record<string, string>>;
  /** Milliseconds the run had run before it paused (its clock and mission deadline go on from there). */
  readonly elapsedMs: number;
  readonly pausedTurn: PausedTurnSnapshot;
  readonly lostFunctions: readonly string[];
  /** Builds the loop state; the tool cache's byte limit is the resumed run's own. */
  state(toolCacheLimitBytes: number | undefined, hiddenTools: ReadonlySet<string> | undefined): LoopState;
}

export interface SnapshotInput {
  readonly prompt: string;
  readonly context: Readonly<Record<string, unknown>>;
  readonly descriptions: Readonly<Record<string, string>>;
  readonly elapsedMs: number;
  readonly state: LoopState;
  readonly pausedTurn: PausedTurnSnapshot;
}

/** The run as JSON data. */
export function snapshotRun(input: SnapshotInput): JsonValue {
  const json = createJsonSafe();
  const { state } = input;
  const lostFunctions = Object.keys(state.memory).filter((name) => typeof state.memory[name] === "function");
  const loop = {
    turn: state.turn,
    messages: state.messages,
    memory: dataOf(externalizeMemory(state.memory)),
    history: state.history.map((value) => externalizeMemory({ value }).value),
    journal: state.journal,
    summaries: state.summaries,
    workRemaining: state.workRemaining,
    retryRemaining: state.retryRemaining,
    remainingTurns: state.remainingTurns,
    toolCache: Object.fromEntries(state.toolCache.entries),
    lastFail: state.lastFail,
    tokens: state.tokens,
    llmRequests: state.llmRequests,
    turns: state.turns.map((turn) => compactTurn(turn, state)),
    // The run's calls are its turns' calls, in order (the driver records them so): written once.
    ...(sameItems(
      state.toolCalls,
      state.turns.flatMap((turn) => turn.toolCalls),
    )
      ? { toolCallsFromTurns: true }
      : { toolCalls: state.toolCalls }),
    prints: state.prints,
    childSteps: state.childSteps.map(stepData),
    nativeToolCalls: state.nativeToolCalls,
    syntheticIds: state.syntheticIds,
    firstSystemPrompt: state.firstSystemPrompt ?? null,
    progressState: state.progressState ?? null,
    compaction: state.compaction ?? null,
    fallbackUsed: state.fallbackUsed,
    lastSuccess:
      state.lastSuccess === undefined
        ? null
        : { value: state.lastSuccess.value, memory: dataOf(state.lastSuccess.memory) },
    schemaBytes: state.schemaBytes ?? null,
    provenance: state.provenance?.snapshot() ?? null,
    approvalToken: state.approvalToken,
    approvalCount: state.approvalCount,
  };
  return json({
    prompt: input.prompt,
    context: input.context,
    descriptions: input.descriptions,
    elapsedMs: input.elapsedMs,
    lostFunctions,
    loop,
    pausedTurn: compactPausedTurn(input.pausedTurn, state),
  });
}

/*
 * A state repeats a lot of what it holds: each turn's record keeps the messages it sent (the
 * conversation up to then) and its system prompt, and a program's calls are in its ledger and in
 * the turn's records. The snapshot writes each once: a turn's messages as the length of the
 * conversation prefix they are, a system prompt equal to the first as a flag, a record's result
 * as the ledger position that holds it. Reading the snapshot puts them back.
 */

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

/** The number of leading messages of the conversation `sent` is, when it is exactly that prefix. */
function prefixOf(
  sent: readonly Message[] | undefined,
  conversation: readonly Message[],
): number | undefined {
  if (sent === undefined || sent.length > conversation.length) return undefined;
  return sent.every((message, index) => message === conversation[index]) ? sent.length : undefined;
}

function compactTurn(turn: Turn, state: LoopState): Record<string, unknown> {
  const { messages, systemPrompt, ...rest } = turn;
  const prefix = prefixOf(messages, state.messages);
  return {
    ...rest,
    memory: dataOf(turn.memory),
    ...(prefix === undefined ? (messages === undefined ? {} : { messages }) : { messagesPrefix: prefix }),
    ...(systemPrompt === undefined
      ? {}
      : systemPrompt === state.firstSystemPrompt
        ? { firstSystemPrompt: true }
        : { systemPrompt }),
  };
}

function compactPausedTurn(turn: PausedTurnSnapshot, state: LoopState): Record<string, unknown> {
  const { messages, system, ...at } = turn.at;
  const prefix = prefixOf(messages, state.messages);
  const ledgerResults = new Map<unknown, string>();
  for (const entry of turn.ledger ?? []) {
    if (typeof entry.result === "object" && entry.result !== null)
      ledgerResults.set(entry.result, entry.position);
  }
  return {
    ...turn,
    at: {
      ...at,
      ...(prefix === undefined ? { messages } : { messagesPrefix: prefix }),
      ...(system === state.firstSystemPrompt ? { firstSystemPrompt: true } : { system }),
    },
    ...(turn.records === undefined
      ? {}
      : {
          records: turn.records.map((record) => {
            const at = ledgerResults.get(record.result);
            if (at === undefined) return record;
            const { result: _kept, ...rest } = record;
            return { ...rest, resultAt: at };
          }),
        }),
  };
}

/** Memory without its functions (a chat keeps them; a snapshot cannot). */
function dataOf(memory: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(memory)) {
    if (typeof value !== "function") Object.defineProperty(out, name, { value, enumerable: true });
  }
  return out;
}

function stepData(step: Step): unknown {
  return { ...step, memory: dataOf(step.memory), toolCache: Object.fromEntries(step.toolCache) };
}

/** Reads a snapshot back. Throws SnapshotError when it is not one. */
export function readSnapshot(data: unknown): RestoredRun {
  const run = record(data, "run");
  const loop = record(run.loop, "run.loop");
  const context = record(run.context, "run.context");
  const descriptions = stringRecord(run.descriptions, "run.descriptions");
  const conversation = messages(loop.messages, "messages");
  const firstSystemPrompt =
    loop.firstSystemPrompt === null ? undefined : text(loop.firstSystemPrompt, "firstSystemPrompt");
  const pausedTurn = readPausedTurn(run.pausedTurn, conversation, firstSystemPrompt);
  const elapsedMs = count(run.elapsedMs, "run.elapsedMs");
  const prompt = text(run.prompt, "run.prompt");
  const lostFunctions = strings(run.lostFunctions, "run.lostFunctions");

  const fields = {
    turn: count(loop.turn, "turn"),
    messages: conversation,
    memory: record(loop.memory, "memory"),
    history: list(loop.history, "history"),
    journal: loop.journal === null ? null : record(loop.journal, "journal"),
    summaries: stringRecord(loop.summaries, "summaries"),
    workRemaining: integer(loop.workRemaining, "workRemaining"),
    retryRemaining: integer(loop.retryRemaining, "retryRemaining"),
    remainingTurns: integer(loop.remainingTurns, "remainingTurns"),
    toolCache: record(loop.toolCache, "toolCache"),
    lastFail: loop.lastFail === null ? null : failOf(loop.lastFail),
    tokens: tokensOf(loop.tokens),
    llmRequests: count(loop.llmRequests, "llmRequests"),
    turns: list(loop.turns, "turns").map((turn, index) =>
      turnOf(turn, `turns[${index}]`, conversation, firstSystemPrompt),
    ),
    prints: strings(loop.prints, "prints"),
    childSteps: list(loop.childSteps, "childSteps").map((step, index) =>
      stepOf(step, `childSteps[${index}]`),
    ),
    nativeToolCalls: count(loop.nativeToolCalls, "nativeToolCalls"),
    syntheticIds: count(loop.syntheticIds, "syntheticIds"),
    firstSystemPrompt:
      loop.firstSystemPrompt === null ? undefined : text(loop.firstSystemPrompt, "firstSystemPrompt"),
    progressState: loop.progressState ?? undefined,
    compaction: loop.compaction === null ? undefined : compactionOf(loop.compaction),
    fallbackUsed: loop.fallbackUsed === true,
    lastSuccess:
      loop.lastSuccess === null
        ? undefined
        : (() => {
            const last = record(loop.lastSuccess, "lastSuccess");
            return { value: last.value ?? null, memory: record(last.memory, "lastSuccess.memory") };
          })(),
    schemaBytes: loop.schemaBytes === null ? undefined : count(loop.schemaBytes, "schemaBytes"),
    provenance: loop.provenance === null ? undefined : (loop.provenance as ProvenanceSnapshot),
    approvalToken: text(loop.approvalToken, "approvalToken"),
    approvalCount: count(loop.approvalCount, "approvalCount"),
  };
  const toolCalls: ToolCallRecord[] =
    loop.toolCallsFromTurns === true
      ? fields.turns.flatMap((turn) => [...turn.toolCalls])
      : list(loop.toolCalls, "toolCalls").map((call, index) => toolCallOf(call, `toolCalls[${index}]`));
  return {
    agentPrompt: prompt,
    context,
    descriptions,
    elapsedMs,
    pausedTurn,
    lostFunctions,
    state: (toolCacheLimitBytes, hiddenTools) => ({
      ...fields,
      messages: [...fields.messages],
      memory: withLostFunctions(fields.memory, lostFunctions),
      history: [...fields.history],
      journal: fields.journal === null ? null : { ...fields.journal },
      summaries: { ...fields.summaries },
      toolCache: new RunToolCache(
        fields.toolCache as Record<string, { result: unknown }>,
        toolCacheLimitBytes,
      ),
      tokens: { ...fields.tokens },
      turns: [...fields.turns],
      toolCalls,
      prints: [...fields.prints],
      childSteps: [...fields.childSteps],
      provenance:
        hiddenTools === undefined
          ? undefined
          : DataProvenance.restore(hiddenTools, fields.provenance ?? undefined),
      resumed: undefined,
    }),
  };
}

/** The messages a turn sent: a prefix of the conversation, or written out. */
function sentMessages(
  holder: Record<string, unknown>,
  where: string,
  conversation: readonly Message[],
): Message[] | undefined {
  if (holder.messagesPrefix !== undefined) {
    const prefix = count(holder.messagesPrefix, `${where}.messagesPrefix`);
    if (prefix > conversation.length) fail(`${where}.messagesPrefix`);
    return conversation.slice(0, prefix);
  }
  return holder.messages === undefined ? undefined : messages(holder.messages, `${where}.messages`);
}

/**
 * Memory with a note in place of each function the snapshot could not keep: a program that calls
 * one is told what happened (`not callable: "f was a function ..."`) instead of reading an
 * unknown name it remembers defining.
 */
function withLostFunctions(
  memory: Readonly<Record<string, unknown>>,
  lost: readonly string[],
): Record<string, unknown> {
  const restored: Record<string, unknown> = { ...memory };
  for (const name of lost) {
    if (Object.hasOwn(restored, name)) continue;
    Object.defineProperty(restored, name, {
      // Short: an error quotes at most 60 characters of a value it cannot call.
      value: `function ${name} was lost in the pause: define it again`,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return restored;
}

function readPausedTurn(
  value: unknown,
  conversation: readonly Message[],
  firstSystemPrompt: string | undefined,
): PausedTurnSnapshot {
  const turn = record(value, "pausedTurn");
  const at = record(turn.at, "pausedTurn.at");
  const type = text(at.type, "pausedTurn.at.type");
  if (type !== "normal" && type !== "must_return" && type !== "retry") fail("pausedTurn.at.type");
  const layer = turn.layer;
  if (layer !== "native" && layer !== "ptc_lisp") fail("pausedTurn.layer");
  const waiting = list(turn.waiting, "pausedTurn.waiting").map((call, index) =>
    waitingOf(call, `pausedTurn.waiting[${index}]`),
  );
  if (waiting.length === 0) fail("pausedTurn.waiting");
  const base = {
    at: {
      type: type as TurnType,
      response: responseOf(at.response),
      streamed: at.streamed === true,
      system:
        at.firstSystemPrompt === true && firstSystemPrompt !== undefined
          ? firstSystemPrompt
          : text(at.system, "pausedTurn.at.system"),
      messages: sentMessages(at, "pausedTurn.at", conversation) ?? fail("pausedTurn.at.messages"),
    },
    layer,
    waiting,
  } as const;
  if (layer === "native") {
    const answered = list(turn.answered, "pausedTurn.answered").map((entry, index) =>
      entry === null ? null : answeredOf(entry, `pausedTurn.answered[${index}]`),
    );
    return { ...base, answered };
  }
  const ledger = list(turn.ledger, "pausedTurn.ledger").map((entry, index) =>
    ledgerEntryOf(entry, `pausedTurn.ledger[${index}]`),
  );
  const byPosition = new Map(ledger.map((entry) => [entry.position, entry]));
  const records = list(turn.records, "pausedTurn.records").map((call, index) => {
    const where = `pausedTurn.records[${index}]`;
    const { resultAt, ...rest } = record(call, where);
    if (resultAt === undefined) return toolCallOf(call, where);
    const entry = byPosition.get(text(resultAt, `${where}.resultAt`));
    if (entry === undefined || !Object.hasOwn(entry, "result")) fail(`${where}.resultAt`);
    return toolCallOf({ ...rest, result: entry.result }, where);
  });
  return { ...base, ledger, records };
}

function waitingOf(value: unknown, where: string): WaitingCall {
  const call = record(value, where);
  const layer = call.layer;
  if (layer !== "native" && layer !== "ptc_lisp") fail(`${where}.layer`);
  const base: WaitingCall = {
    id: text(call.id, `${where}.id`),
    toolName: text(call.toolName, `${where}.toolName`),
    args: record(call.args, `${where}.args`),
    layer,
  };
  if (layer === "native") return { ...base, index: count(call.index, `${where}.index`) };
  return {
    ...base,
    position: text(call.position, `${where}.position`),
    programArgs: record(call.programArgs, `${where}.programArgs`),
  };
}

function answeredOf(value: unknown, where: string): AnsweredCall {
  const entry = record(value, where);
  return {
    content: text(entry.content, `${where}.content`),
    records: list(entry.records, `${where}.records`).map((call, index) =>
      toolCallOf(call, `${where}.records[${index}]`),
    ),
  };
}

function ledgerEntryOf(value: unknown, where: string): LedgerEntry {
  const entry = record(value, where);
  const base = {
    position: text(entry.position, `${where}.position`),
    name: text(entry.name, `${where}.name`),
    args: record(entry.args, `${where}.args`),
  };
  if (typeof entry.error === "string") return { ...base, error: entry.error };
  if (!Object.hasOwn(entry, "result")) fail(`${where}.result`);
  return { ...base, result: entry.result };
}

function responseOf(value: unknown): NormalizedResponse {
  const response = record(value, "pausedTurn.at.response");
  const content = response.content === null ? null : text(response.content, "pausedTurn.at.response.content");
  const toolCalls =
    response.toolCalls === null
      ? null
      : list(response.toolCalls, "pausedTurn.at.response.toolCalls").map((call, index) =>
          modelCallOf(call, `pausedTurn.at.response.toolCalls[${index}]`),
        );
  const tokens = response.tokens === null ? null : record(response.tokens, "pausedTurn.at.response.tokens");
  return { content, toolCalls, tokens };
}

function modelCallOf(value: unknown, where: string): NormalizedToolCall {
  const call = record(value, where);
  return {
    id: call.id === undefined || call.id === null ? undefined : text(call.id, `${where}.id`),
    name: text(call.name, `${where}.name`),
    args: record(call.args, `${where}.args`),
    rawArgs:
      call.rawArgs === undefined || call.rawArgs === null
        ? undefined
        : text(call.rawArgs, `${where}.rawArgs`),
    argsError:
      call.argsError === undefined || call.argsError === null
        ? undefined
        : text(call.argsError, `${where}.argsError`),
  };
}

function toolCallOf(value: unknown, where: string): ToolCallRecord {
  const call = record(value, where);
  text(call.name, `${where}.name`);
  if (typeof call.durationMs !== "number") fail(`${where}.durationMs`);
  return call as unknown as ToolCallRecord;
}

function turnOf(
  value: unknown,
  where: string,
  conversation: readonly Message[],
  firstSystemPrompt: string | undefined,
): Turn {
  const { messagesPrefix: _prefix, firstSystemPrompt: usesFirst, ...turn } = record(value, where);
  count(turn.number, `${where}.number`);
  text(turn.rawResponse, `${where}.rawResponse`);
  for (const [index, call] of list(turn.toolCalls, `${where}.toolCalls`).entries()) {
    toolCallOf(call, `${where}.toolCalls[${index}]`);
  }
  record(turn.memory, `${where}.memory`);
  const sent = sentMessages(record(value, where), where, conversation);
  const systemPrompt = usesFirst === true ? firstSystemPrompt : turn.systemPrompt;
  return {
    ...(turn as unknown as Turn),
    ...(sent === undefined ? {} : { messages: sent }),
    ...(typeof systemPrompt === "string" ? { systemPrompt } : {}),
  };
}

function stepOf(value: unknown, where: string): Step {
  const step = record(value, where);
  const cache: ToolCache = new Map(
    Object.entries(record(step.toolCache, `${where}.toolCache`)) as [string, { result: unknown }][],
  );
  Object.defineProperty(cache, "toJSON", { value: () => Object.fromEntries(cache), enumerable: false });
  return {
    ...(step as unknown as Step),
    toolCache: cache,
    childSteps: list(step.childSteps, `${where}.childSteps`).map((child, index) =>
      stepOf(child, `${where}.childSteps[${index}]`),
    ),
  };
}

function failOf(value: unknown): { reason: string; message: string } {
  const fail = record(value, "lastFail");
  return { reason: text(fail.reason, "lastFail.reason"), message: text(fail.message, "lastFail.message") };
}

function tokensOf(value: unknown): LoopState["tokens"] {
  const tokens = record(value, "tokens");
  return {
    input: count(tokens.input, "tokens.input"),
    output: count(tokens.output, "tokens.output"),
    cacheCreation: count(tokens.cacheCreation, "tokens.cacheCreation"),
    cacheRead: count(tokens.cacheRead, "tokens.cacheRead"),
    reported: tokens.reported === true,
  };
}

function compactionOf(value: unknown): NonNullable<LoopState["compaction"]> {
  const stats = record(value, "compaction");
  return {
    count: count(stats.count, "compaction.count"),
    messagesBefore: count(stats.messagesBefore, "compaction.messagesBefore"),
    messagesAfter: count(stats.messagesAfter, "compaction.messagesAfter"),
  };
}

function messages(value: unknown, where: string): Message[] {
  return list(value, where).map((message, index) => {
    const item = record(message, `${where}[${index}]`);
    const role = item.role;
    if (role !== "system" && role !== "user" && role !== "assistant" && role !== "tool")
      fail(`${where}[${index}].role`);
    text(item.content, `${where}[${index}].content`);
    return item as unknown as Message;
  });
}

function fail(where: string): never {
  throw new SnapshotError(
    `${where} is missing or not what a paused run's state holds; pass the state exactly as run or resume returned it`,
  );
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(where);
  return value as Record<string, unknown>;
}

function stringRecord(value: unknown, where: string): Record<string, string> {
  const object = record(value, where);
  for (const [key, item] of Object.entries(object)) if (typeof item !== "string") fail(`${where}.${key}`);
  return object as Record<string, string>;
}

function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) fail(where);
  return value;
}

function strings(value: unknown, where: string): string[] {
  const items = list(value, where);
  return items.map((item, index) => text(item, `${where}[${index}]`));
}

function text(value: unknown, where: string): string {
  if (typeof value !== "string") fail(where);
  return value;
}

function integer(value: unknown, where: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) fail(where);
  return value;
}

function count(value: unknown, where: string): number {
  const number = integer(value, where);
  if (number < 0) fail(where);
  return number;
}

/**
 * What another app needs to replay the demo's conversation (the playground's replay view runs it
 * in a browser): the logs, the agent, the scripted model's steps, the recording of every request,
 * and the token bill. All of it is free of Node: no file, no process, no terminal.
 */
export { demoLogs, type LogStore } from "./logs/log-data.js";
export { createRecordingModel, type ModelExchange, type RecordedRequest } from "./run/recording-model.js";
export { countTokens, requestTokens } from "./tokens/count-tokens.js";
export { type RequestTokens, summarizeTokens, type TokenSummary } from "./tokens/token-summary.js";
export { triageSteps } from "./triage/scripted-triage.js";
export { createTriageAgent, DEMO_QUESTION } from "./triage/triage-agent.js";

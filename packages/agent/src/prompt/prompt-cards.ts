/**
 * The fixed texts of the agent's prompts: the PTC-Lisp language card, the behaviour cards of
 * single-shot and multi-turn agents, the `<output_format>` blocks of each transport, and the text
 * mode cards. They are written for a model to read: short, concrete, with one example each.
 * The XML-ish section names (`<single_shot>`, `<return_rules>`, `<multi_turn_rules>`, `<state>`,
 * `<journal_restrictions>`, `<output_format>`) are part of the contract; tests look for them.
 */

export const LANGUAGE_REFERENCE = `<ptc_lisp>
You write programs in PTC-Lisp, a small and safe subset of Clojure. A program is one or more forms; the value of the last form is its result.

Data and tools:
- Input data lives under \`data/\`: \`data/orders\`, \`(get-in data/user [:address :city])\`. It is read-only.
- Call tools with named arguments only: \`(tool/search {:query "x" :limit 10})\`. Never \`(tool/search "x")\`.
- Maps from tools or data may have string keys; keyword access works on both: \`(:status row)\` reads \`"status"\`.

Language:
- Bind with \`def\`, \`defn\`, \`let\`, \`fn\`, \`#(... % ...)\`, destructuring \`[{:keys [a b]} m]\`.
- Control: \`if\` \`when\` \`cond\` \`case\` \`and\` \`or\`, \`loop\`/\`recur\`, \`doseq\`, \`for\`.
- Collections: \`map\` \`filter\` \`remove\` \`reduce\` \`group-by\` \`frequencies\` \`sort-by\` \`distinct\` \`count\` \`first\` \`take\` \`drop\` \`into\` \`assoc\` \`update\` \`merge\` \`select-keys\` \`get-in\`, threading \`->\` and \`->>\`.
- Aggregates: \`sum-by\`, \`avg-by\`, \`max-by\`, \`min-by\`; plus \`str/join\`, \`str/split\`, \`re-find\`, \`json/parse-string\`, math.
- Output: \`(println ...)\` shows text on your next turn.
- Not available: \`ns\`/\`require\`/\`import\`, atoms, try/catch/throw, lazy or infinite sequences, files, network, Java interop beyond a few helpers.

Ending:
- \`(return value)\` ends the task with \`value\` as the answer.
- \`(fail {:reason :not-found :message "..."})\` ends it as a failure when it cannot be done.
</ptc_lisp>`;

export const SINGLE_SHOT_BEHAVIOUR = `<single_shot>
Answer with one program. Its last expression's value is the answer, so end with the expression that computes it.

\`\`\`clojure
(->> data/orders
     (filter #(= (:status %) "paid"))
     (sum-by :amount))
\`\`\`
</single_shot>`;

export const MULTI_TURN_BEHAVIOUR = `<multi_turn_rules>
You work in turns. Each turn you send one program; its printed output, its value and what it stored come back to you on the next turn.

- Keep each program short: one step at a time is cheaper than a big program that fails.
- Call several tools in one program when you need all of their results.
- Do not copy data you were shown into your code; refer to it by name.
- Printed output is cut at about 512 characters: print counts, keys and samples, not whole collections.
</multi_turn_rules>

<state>
What you \`def\` stays available in later turns:

\`\`\`clojure
(def orders (tool/list-orders {:status "paid"}))  ; stored
(println (count orders) (first orders))            ; look before you answer
\`\`\`

\`*1\`, \`*2\` and \`*3\` hold the values of your last three programs. \`(budget/remaining)\` tells the turns and tokens left.
</state>`;

export const EXPLICIT_RETURN_BEHAVIOUR = `<return_rules>
Finish with \`(return answer)\`, or \`(fail reason)\` when the task cannot be done. Both end the task at once.

Look before you return: output you print appears only on your next turn, so never print or call a tool in the same program that returns. Return only what you have seen evidence for.

\`\`\`clojure
;; turn 1: fetch and look
(def items (tool/get-items {:status "active"}))
(println (count items) (keys (first items)))
\`\`\`

\`\`\`clojure
;; turn 2: you saw the shape; answer
(return (mapv :id items))
\`\`\`
</return_rules>`;

export const JOURNAL_CAPABILITY = `<journal_restrictions>
Record finished work so it is never done twice:
- \`(task "fetch-users" (tool/get-users {}))\` runs its body once per id; later programs get the recorded value.
- \`(step-done "1" "fetched 120 users")\` marks a plan step done with a short summary.
- Give every task a stable, descriptive id. Do not wrap pure computation in \`task\`; only tool calls and other side effects.
</journal_restrictions>`;

export const OUTPUT_FORMAT_CONTENT = `<output_format>
Respond with EXACTLY ONE \`\`\`clojure code block and nothing else. Put your reasoning in \`;;\` comments inside the block.
</output_format>`;

export const OUTPUT_FORMAT_CONTENT_THINKING = `<output_format>
First write your reasoning after the line \`thinking:\`, then EXACTLY ONE \`\`\`clojure code block. Nothing after the block.

thinking:
<your reasoning>

\`\`\`clojure
<your program>
\`\`\`
</output_format>`;

export const OUTPUT_FORMAT_TOOL_CALL = `<output_format>
Each turn, do exactly one of these:
1. Call the native tool \`lisp_eval\` with your program in its \`program\` argument. App tools are called from inside the program as \`(tool/name {...})\`; only \`lisp_eval\` exists natively.
2. When you know the answer, reply with it directly in the requested signature shape, without calling any tool.
Never send a fenced code block as your reply: programs go through \`lisp_eval\`.
</output_format>`;

export const OUTPUT_FORMAT_TOOL_CALL_THINKING = `<output_format>
Think first: write your reasoning after the line \`thinking:\`. Then do exactly one of these:
1. Call the native tool \`lisp_eval\` with your program in its \`program\` argument. App tools are called from inside the program as \`(tool/name {...})\`; only \`lisp_eval\` exists natively.
2. When you know the answer, reply with it directly in the requested signature shape, without calling any tool.
Never send a fenced code block as your reply: programs go through \`lisp_eval\`.
</output_format>`;

export const TEXT_SYSTEM = "You are a helpful assistant.";

export const JSON_SYSTEM = `You answer with data.

<output_format>
Reply with only a valid JSON value that matches the requested structure: no markdown, no code fences, no explanation before or after it.
</output_format>`;

export const TOOL_CALLING_SYSTEM = `<role>Use tools to complete the task.</role>

<instructions>
- Call a tool when you need information or an action you cannot do yourself; you may call several.
- Read each tool result before deciding what to do next.
- When you have everything you need, give the final answer in the format the task asks for. If it asks for a JSON object, reply with the raw JSON object only.
</instructions>`;

/** The first user message of the JSON-only text variant. Placeholders are replaced literally. */
export const JSON_USER_TEMPLATE = `{{task}}

{{output_instruction}}
{{field_descriptions}}

Example:
{{example_output}}`;

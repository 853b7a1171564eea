import { createTools } from "@ptc/tool";
import { encode } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import { ProtocolError } from "./errors.js";
import {
  COMPACT_REFERENCE_CARD,
  combinedModeReferenceCard,
  REFERENCE_CARD_MAX_BYTES,
  renderPtcToolsSection,
} from "./reference-card.js";

const noop = () => null;
const combined = { output: "text", ptcTransport: "tool_call" } as const;

describe("COMPACT_REFERENCE_CARD", () => {
  it(`stays within ${REFERENCE_CARD_MAX_BYTES} bytes`, () => {
    expect(new TextEncoder().encode(COMPACT_REFERENCE_CARD).byteLength).toBeLessThanOrEqual(
      REFERENCE_CARD_MAX_BYTES,
    );
    expect(REFERENCE_CARD_MAX_BYTES).toBe(2200);
  });

  // Every request of a combined-mode run carries the card and the schema (o200k tokens, as
  // `pnpm bench:tokens` counts them).
  it("stays within 300 tokens, with or without a tool in its example", () => {
    expect(encode(COMPACT_REFERENCE_CARD).length).toBeLessThanOrEqual(300);
    const withTool = combinedModeReferenceCard({
      ...combined,
      tools: createTools({
        search_logs: {
          execute: noop,
          signature: "(query :string, since :string?) -> [:any]",
          expose: "both",
        },
      }),
    }) as string;
    expect(encode(withTool.slice(0, withTool.indexOf("<ptc_tools>")).trimEnd()).length).toBeLessThanOrEqual(
      300,
    );
  });

  it("teaches the call shape, every form, the namespaces and cache reuse, with an example", () => {
    expect(COMPACT_REFERENCE_CARD.startsWith("<ptc_lisp_reference>\n")).toBe(true);
    expect(COMPACT_REFERENCE_CARD.endsWith("\n</ptc_lisp_reference>")).toBe(true);
    for (const fragment of [
      "lisp_eval",
      "`program`",
      "(return v)",
      "(fail v)",
      "def defn (let [x 1] ...) (fn [x] ...) #(... %)",
      "if when cond loop/recur map filter reduce group-by sort-by count get get-in",
      "str/join set/union json/parse-string json/generate-string Double/parseDouble LocalDate/parse",
      "keys, println, pr-str",
      "None of: let* lambda equal? length ns require import macros atoms futures try/catch",
      "Literals: nil true false",
      "sets #{1 2}",
      "data/orders, not (data/orders) or orders",
      "(:status row)",
      "(tool/name {:key value})",
      "full_result_cached: true",
      "the tool does not run again",
    ]) {
      expect(COMPACT_REFERENCE_CARD).toContain(fragment);
    }
  });

  it("is the same text for the same tools, whatever their order", () => {
    const tools = createTools({
      b_tool: { execute: noop, signature: "() -> [:any]", expose: "both" },
      a_tool: { execute: noop, signature: "(q :string) -> :int", expose: "ptc_lisp" },
    });
    const reversed = createTools({ a_tool: tools.a_tool, b_tool: tools.b_tool });
    const first = combinedModeReferenceCard({ ...combined, tools });
    expect(combinedModeReferenceCard({ ...combined, tools: reversed })).toBe(first);
    expect(combinedModeReferenceCard({ ...combined, tools: Object.values(tools).reverse() })).toBe(first);
  });

  it("calls no tool in its example: without program-callable tools, none exists", () => {
    const example = COMPACT_REFERENCE_CARD.slice(COMPACT_REFERENCE_CARD.indexOf("```"));
    expect(example).not.toContain("tool/");
    expect(COMPACT_REFERENCE_CARD).toContain("(return {:big (count (filter");
  });

  it("mentions nothing that only exists in other products", () => {
    for (const fragment of ["tool/mcp-call", ":json-null", "World-fault", "upstream_calls"]) {
      expect(COMPACT_REFERENCE_CARD).not.toContain(fragment);
    }
  });

  it("renders as snapshotted", () => {
    expect(COMPACT_REFERENCE_CARD).toMatchSnapshot();
  });
});

describe("renderPtcToolsSection", () => {
  const tools = createTools({
    zeta_report: { execute: noop, expose: "ptc_lisp" },
    search_logs: {
      execute: noop,
      signature: "(query :string) -> [:any]",
      description: "Search log events.",
      expose: "both",
      cache: true,
    },
    native_only: { execute: noop, signature: ":int", expose: "native" },
    plain: noop,
    describe_only: { execute: noop, description: "Describe.", expose: "both" },
    lookup: {
      execute: noop,
      signature: "(id :int) -> {name :string, tier :int}",
      description: "Look a customer up.",
      expose: "ptc_lisp",
    },
    any_result: { execute: noop, signature: "(q :string) -> :any", description: "Anything.", expose: "both" },
  });

  it("lists program-callable tools by name: a native one with its return type, a program-only one with signature and description", () => {
    expect(renderPtcToolsSection(tools)).toMatchInlineSnapshot(`
      "<ptc_tools>
      - tool/any_result
      - tool/describe_only
      - tool/lookup (id :int) -> {name :string, tier :int} — Look a customer up.
      - tool/search_logs -> [:any]
      - tool/zeta_report
      </ptc_tools>"
    `);
  });

  it("is empty when no tool is program-callable", () => {
    expect(renderPtcToolsSection([tools.native_only, tools.plain].filter((tool) => tool !== undefined))).toBe(
      "",
    );
  });
});

describe("combinedModeReferenceCard", () => {
  const example = (call: string) =>
    COMPACT_REFERENCE_CARD.replace(
      /```\n[\s\S]*\n```/,
      `\`\`\`\n(def rows ${call})\n(return {:total (count rows) :first (first rows)})\n\`\`\``,
    );

  it("appends the inventory, and its example calls the app's own tool", () => {
    const card = combinedModeReferenceCard({
      ...combined,
      tools: createTools({
        search_logs: { execute: noop, signature: "(query :string) -> [:any]", expose: "both", cache: true },
      }),
    });
    expect(card).toBe(
      `${example('(tool/search_logs {:query "..."})')}\n\n<ptc_tools>\n- tool/search_logs -> [:any]\n</ptc_tools>`,
    );
  });

  it("calls the first program-callable tool by name, with its required parameters only", () => {
    const card = combinedModeReferenceCard({
      ...combined,
      tools: createTools({
        zeta: { execute: noop, expose: "ptc_lisp" },
        list_orders: {
          execute: noop,
          signature: "(customer_id :int, status :string, since :datetime?, limit :int) -> [:any]",
          expose: "ptc_lisp",
        },
        a_native: { execute: noop, signature: "(q :string) -> :any", expose: "native" },
      }),
    });
    expect(card).toContain('(def rows (tool/list_orders {:customer-id 10 :status "..."}))');
    expect(card).not.toContain("tool/search_logs");
  });

  it("prefers a tool that returns a list, and never counts what a map-returning tool gives", () => {
    const withList = combinedModeReferenceCard({
      ...combined,
      tools: createTools({
        get_customer: { execute: noop, signature: "(id :int) -> {name :string}", expose: "both" },
        list_orders: { execute: noop, signature: "(status :string) -> [{id :int}]", expose: "both" },
      }),
    });
    expect(withList).toContain('(def rows (tool/list_orders {:status "..."}))');
    expect(withList).not.toContain("(tool/get_customer {:id 10})");

    const mapOnly = combinedModeReferenceCard({
      ...combined,
      tools: createTools({
        get_customer: { execute: noop, signature: "(id :int) -> {name :string}", expose: "both" },
      }),
    });
    expect(mapOnly).toContain(
      '(def result (tool/get_customer {:id 10}))\n(println "result:" result)\n(return result)',
    );
    expect(mapOnly).not.toContain("(count rows)");
  });

  it("reads JSON fields with keywords, as every example does", () => {
    expect(COMPACT_REFERENCE_CARD).toContain("(:status row)");
    expect(COMPACT_REFERENCE_CARD).not.toContain('(get row "status")');
  });

  it("calls a tool without a signature with no arguments", () => {
    const card = combinedModeReferenceCard({
      ...combined,
      tools: createTools({ now: { execute: noop, expose: "ptc_lisp" } }),
    });
    expect(card).toContain("(def rows (tool/now {}))");
  });

  it(`stays within ${REFERENCE_CARD_MAX_BYTES} bytes with the longest tool name a provider accepts`, () => {
    const name = "t".repeat(64);
    const card = combinedModeReferenceCard({
      ...combined,
      tools: createTools({
        [name]: {
          execute: noop,
          signature: "(a_long_parameter_name :datetime, another_one :string) -> :any",
          expose: "ptc_lisp",
        },
      }),
    }) as string;
    const cardAlone = card.slice(0, card.indexOf("</ptc_lisp_reference>") + "</ptc_lisp_reference>".length);
    expect(new TextEncoder().encode(cardAlone).byteLength).toBeLessThanOrEqual(REFERENCE_CARD_MAX_BYTES);
  });

  it("is the card alone when combined mode exposes no tool to programs (tools default to native)", () => {
    expect(combinedModeReferenceCard({ ...combined, tools: createTools({ search: noop }) })).toBe(
      COMPACT_REFERENCE_CARD,
    );
    expect(combinedModeReferenceCard(combined)).toBe(COMPACT_REFERENCE_CARD);
  });

  it("is undefined outside combined mode", () => {
    expect(combinedModeReferenceCard({ output: "text" })).toBeUndefined();
    expect(combinedModeReferenceCard({ output: "ptc_lisp", ptcTransport: "tool_call" })).toBeUndefined();
    expect(combinedModeReferenceCard({})).toBeUndefined();
  });

  it("accepts only the compact reference", () => {
    expect(combinedModeReferenceCard({ ...combined, ptcReference: "compact" })).toBe(COMPACT_REFERENCE_CARD);
    expect(() => combinedModeReferenceCard({ ...combined, ptcReference: "full" as "compact" })).toThrow(
      ProtocolError,
    );
  });
});

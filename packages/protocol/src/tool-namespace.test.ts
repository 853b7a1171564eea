import { createTools } from "@ptc/tool";
import { describe, expect, it } from "vitest";
import { renderToolNamespace } from "./tool-namespace.js";

const noop = () => null;

describe("renderToolNamespace", () => {
  it("says so when there are no tools", () => {
    expect(renderToolNamespace({})).toBe(";; No tools available");
    expect(renderToolNamespace([])).toBe(";; No tools available");
  });

  it("renders a tool without parameters and the generic call hint", () => {
    expect(renderToolNamespace([{ name: "get-inventory", signature: "-> :map" }])).toBe(
      ";; === tools ===\ntool/get-inventory() -> map\n;; Call with named args: (tool/name {:key value})",
    );
  });

  it("renders parameters without colons and an example from the first tool with parameters", () => {
    expect(
      renderToolNamespace([{ name: "search", signature: "(query :string, limit :int) -> [:string]" }]),
    ).toBe(
      ";; === tools ===\ntool/search(query string, limit int) -> [string]\n;; Example: (tool/search {:query ... :limit ...})",
    );
  });

  it("appends descriptions", () => {
    expect(
      renderToolNamespace([{ name: "analyze", signature: "-> :map", description: "Analyze data" }]),
    ).toBe(
      ";; === tools ===\ntool/analyze() -> map  ; Analyze data\n;; Call with named args: (tool/name {:key value})",
    );
  });

  it("sorts by name, kebab-cases keys, and shows unsigned tools as () -> any", () => {
    const tools = createTools({
      zeta: noop,
      fetch_orders: {
        execute: noop,
        signature: "(customer_id :int, since :datetime?) -> [{order_id :int, _line_items [{sku :string}]}]",
        description: "Orders of a customer.",
      },
      "grep-n": {
        execute: noop,
        signature:
          "(pattern :string, text :string, context :int?) -> [{line :int, text :string, match :bool}]",
      },
    });
    expect(renderToolNamespace(tools)).toMatchSnapshot();
  });

  it("keeps going past a signature that does not parse", () => {
    expect(renderToolNamespace([{ name: "odd", signature: "(x :integer) -> :int" }])).toContain(
      "tool/odd() -> any",
    );
  });
});

/**
 * What a program runs against: the context (JSON, read as `data/`), the mock tools (a name and
 * the JSON every call returns, callable as `tool/name`) and the limits. Reading them checks them:
 * a mistake comes back as a message that says where it is and what to write instead, and the
 * program does not run.
 */
import type { CodeGeneration } from "@ptc/lisp";
import type { PlaygroundLimits } from "../run/run-protocol.js";
import type { MockTool } from "../share/share-state.js";

export interface RunInputs {
  readonly context: Readonly<Record<string, unknown>>;
  readonly tools: Readonly<Record<string, unknown>>;
  readonly limits: PlaygroundLimits;
  readonly codeGeneration: CodeGeneration;
}

export class InputError extends Error {
  override readonly name = "InputError";
}

const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function element<T extends HTMLElement>(root: ParentNode, selector: string): T {
  const found = root.querySelector<T>(selector);
  if (found === null) throw new Error(`the page has no ${selector}`);
  return found;
}

export class InputsPane {
  private readonly context: HTMLTextAreaElement;
  private readonly toolList: HTMLElement;
  private readonly timeout: HTMLInputElement;
  private readonly iterations: HTMLInputElement;
  private readonly memory: HTMLInputElement;
  private readonly depth: HTMLInputElement;
  private readonly codeGeneration: HTMLSelectElement;

  constructor(
    root: ParentNode,
    private readonly onChange: () => void,
  ) {
    this.context = element(root, "#context");
    this.toolList = element(root, "#tool-list");
    this.timeout = element(root, "#limit-timeout");
    this.iterations = element(root, "#limit-iterations");
    this.memory = element(root, "#limit-memory");
    this.depth = element(root, "#limit-depth");
    this.codeGeneration = element(root, "#code-generation");
    element<HTMLButtonElement>(root, "#add-tool").addEventListener("click", () => {
      this.addTool({ name: `tool_${this.toolList.children.length + 1}`, result: "[]" }).focus();
      this.onChange();
    });
    this.context.addEventListener("input", onChange);
  }

  /** Adds a tool row; returns its name field. */
  private addTool(tool: MockTool): HTMLInputElement {
    const row = document.createElement("div");
    row.className = "tool";
    const name = document.createElement("input");
    name.className = "tool-name";
    name.value = tool.name;
    name.spellcheck = false;
    name.setAttribute("aria-label", "Tool name");
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "quiet";
    remove.textContent = "Remove";
    remove.setAttribute("aria-label", `Remove tool ${tool.name}`);
    const result = document.createElement("textarea");
    result.className = "tool-result code";
    result.value = tool.result;
    result.spellcheck = false;
    result.rows = Math.min(12, Math.max(3, tool.result.split("\n").length));
    result.setAttribute("aria-label", `Result of ${tool.name}`);
    name.addEventListener("input", () => {
      remove.setAttribute("aria-label", `Remove tool ${name.value}`);
      result.setAttribute("aria-label", `Result of ${name.value}`);
      this.onChange();
    });
    result.addEventListener("input", this.onChange);
    remove.addEventListener("click", () => {
      row.remove();
      this.onChange();
    });
    const head = document.createElement("div");
    head.className = "tool-head";
    head.append(name, remove);
    row.append(head, result);
    this.toolList.append(row);
    return name;
  }

  setContext(text: string): void {
    this.context.value = text;
    // As tall as the text, within bounds (the field can still be resized).
    this.context.rows = Math.min(14, Math.max(3, text.split("\n").length));
  }

  setTools(tools: readonly MockTool[]): void {
    this.toolList.replaceChildren();
    for (const tool of tools) this.addTool(tool);
  }

  setCodeGeneration(setting: CodeGeneration): void {
    this.codeGeneration.value = setting;
  }

  /** The context and tools as text, for a share link. */
  texts(): { context: string; tools: MockTool[] } {
    return {
      context: this.context.value,
      tools: [...this.toolList.querySelectorAll(".tool")].map((row) => ({
        name: (row.querySelector(".tool-name") as HTMLInputElement).value,
        result: (row.querySelector(".tool-result") as HTMLTextAreaElement).value,
      })),
    };
  }

  /** The inputs of a run, checked. Throws InputError with what to fix. */
  read(): RunInputs {
    const { context: contextText, tools: toolTexts } = this.texts();
    let context: unknown;
    try {
      context = contextText.trim() === "" ? {} : JSON.parse(contextText);
    } catch (error) {
      throw new InputError(
        `The context is not valid JSON (${(error as Error).message}). Fix it under Context, below the editor.`,
      );
    }
    if (typeof context !== "object" || context === null || Array.isArray(context)) {
      throw new InputError(
        'The context must be a JSON object whose keys are the data/ names, e.g. {"orders": [...]} for data/orders.',
      );
    }
    const tools: Record<string, unknown> = {};
    for (const tool of toolTexts) {
      const name = tool.name.trim();
      if (!TOOL_NAME.test(name)) {
        throw new InputError(
          `"${name}" is not a tool name: use letters, digits, _ and -, starting with a letter (list_orders is called as tool/list-orders or tool/list_orders).`,
        );
      }
      if (name in tools)
        throw new InputError(`Two tools are named ${name}: rename or remove one under Mock tools.`);
      try {
        tools[name] = JSON.parse(tool.result);
      } catch (error) {
        throw new InputError(`The result of tool ${name} is not valid JSON (${(error as Error).message}).`);
      }
    }
    const limit = (input: HTMLInputElement, label: string, scale: number): number => {
      const value = Number(input.value);
      if (!Number.isFinite(value) || value <= 0) {
        throw new InputError(
          `${label} must be a positive number, got "${input.value}". Set it under Limits, below the editor.`,
        );
      }
      return Math.round(value * scale);
    };
    return {
      context: context as Record<string, unknown>,
      tools,
      limits: {
        timeoutMs: limit(this.timeout, "The time limit", 1),
        maxIterations: limit(this.iterations, "The iteration limit", 1),
        maxMemoryBytes: limit(this.memory, "The memory limit", 1_000_000),
        maxDepth: limit(this.depth, "The recursion depth", 1),
      },
      codeGeneration: this.codeGeneration.value === "off" ? "off" : "auto",
    };
  }
}

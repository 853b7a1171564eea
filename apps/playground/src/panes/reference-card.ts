/**
 * The reference card beside the editor: the same compact card a model reads in combined mode
 * (@ptc/protocol's COMPACT_REFERENCE_CARD), shown as a page. Its small markdown (paragraphs,
 * `- ` lists, `code` spans, fenced blocks) is turned into elements, never into HTML text.
 */
import { COMPACT_REFERENCE_CARD } from "@ptc/protocol";

function inline(text: string): Node[] {
  // Backticks alternate between text and code.
  return text.split("`").map((part, index) => {
    if (index % 2 === 0) return document.createTextNode(part);
    const code = document.createElement("code");
    code.textContent = part;
    return code;
  });
}

export function renderReferenceCard(parent: HTMLElement): void {
  const text = COMPACT_REFERENCE_CARD.replace(/<\/?ptc_lisp_reference>/g, "").trim();
  let list: HTMLUListElement | undefined;
  let inFence = false;
  let fence: string[] = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) {
      if (inFence) {
        const pre = document.createElement("pre");
        pre.className = "card-example";
        pre.textContent = fence.join("\n");
        parent.append(pre);
        fence = [];
      }
      inFence = !inFence;
      list = undefined;
      continue;
    }
    if (inFence) {
      fence.push(line);
    } else if (line.startsWith("- ")) {
      if (list === undefined) {
        list = document.createElement("ul");
        parent.append(list);
      }
      const item = document.createElement("li");
      item.append(...inline(line.slice(2)));
      list.append(item);
    } else if (line.trim() !== "") {
      list = undefined;
      const paragraph = document.createElement("p");
      paragraph.append(...inline(line));
      parent.append(paragraph);
    } else {
      list = undefined;
    }
  }
}

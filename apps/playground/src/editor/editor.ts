/**
 * The program editor: CodeMirror 6 with Clojure highlighting (PTC-Lisp is a Clojure subset),
 * bracket matching and closing, Mod-Enter to run, and the error of the last run marked where it
 * happened: its line tinted and the form at its column underlined, until the text changes.
 *
 * The editor lives in a shadow root. There CodeMirror's styles go into an adopted (constructed)
 * style sheet; in the document itself they would be a <style> element, which a page whose
 * Content-Security-Policy has no 'unsafe-inline' for styles refuses.
 */
import { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import {
  bracketMatching,
  HighlightStyle,
  indentOnInput,
  StreamLanguage,
  syntaxHighlighting,
} from "@codemirror/language";
import { clojure } from "@codemirror/legacy-modes/mode/clojure";
import { EditorState, type Extension, RangeSetBuilder, StateEffect, StateField } from "@codemirror/state";
import {
  Decoration,
  type DecorationSet,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { tags } from "@lezer/highlight";

/** Where the last run's error happened, 1-based as @ptc/lisp reports it. */
export interface ErrorMark {
  readonly line: number;
  readonly column: number;
}

const setErrorMark = StateEffect.define<ErrorMark | null>();

/** The characters that end a symbol, keyword or number in PTC-Lisp. */
const DELIMITER = /[\s,()[\]{}"';]/;

function markDecorations(state: EditorState, mark: ErrorMark): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  const line = state.doc.line(Math.min(Math.max(mark.line, 1), state.doc.lines));
  const from = Math.min(line.from + Math.max(mark.column - 1, 0), line.to);
  // The token at the column: a symbol up to its delimiter; at an opening bracket, the bracket
  // and the form's head (`(loop`), which names what failed; else the one character there.
  const text = line.text;
  const endOfToken = (start: number): number => {
    let end = start;
    while (end < line.to && !DELIMITER.test(text.charAt(end - line.from))) end++;
    return end;
  };
  let to = endOfToken(from);
  if (to === from && from < line.to) {
    to = from + 1;
    if ("([{".includes(text.charAt(from - line.from))) to = Math.max(to, endOfToken(to));
  }
  builder.add(
    line.from,
    line.from,
    Decoration.line({ class: "cm-error-line", attributes: { "data-error-line": String(line.number) } }),
  );
  if (to > from) builder.add(from, to, Decoration.mark({ class: "cm-error-mark" }));
  return builder.finish();
}

const errorField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, transaction) {
    // Any edit makes the position stale: the mark goes with it.
    if (transaction.docChanged) marks = Decoration.none;
    for (const effect of transaction.effects) {
      if (effect.is(setErrorMark))
        marks = effect.value === null ? Decoration.none : markDecorations(transaction.state, effect.value);
    }
    return marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

/** The page's look, inside the shadow root (CSS custom properties cross into it). */
const theme = EditorView.theme({
  // Grows with the program, within bounds; past them it scrolls.
  "&": { minHeight: "260px", maxHeight: "560px", fontSize: "13.5px", backgroundColor: "var(--panel)" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.5", overflow: "auto" },
  ".cm-content, .cm-gutter": { minHeight: "260px" },
  "&.cm-focused": { outline: "none" },
  ".cm-gutters": { backgroundColor: "#fafbfc", borderRight: "1px solid var(--line)", color: "#a0a8b2" },
  ".cm-activeLine": { backgroundColor: "#f5f8ff" },
  ".cm-activeLineGutter": { backgroundColor: "#eef2fb" },
  "&.cm-focused .cm-matchingBracket": { backgroundColor: "#dbe7ff", outline: "1px solid #9db8f0" },
  "&.cm-focused .cm-nonmatchingBracket": { backgroundColor: "var(--bad-bg)", color: "var(--bad)" },
  ".cm-error-line": { backgroundColor: "var(--bad-bg)" },
  ".cm-error-line.cm-activeLine": { backgroundColor: "var(--bad-bg)" },
  ".cm-error-mark": {
    backgroundColor: "rgba(180, 35, 24, 0.16)",
    borderRadius: "2px",
    textDecoration: "underline wavy var(--bad)",
    textUnderlineOffset: "3px",
  },
});

const highlightStyle = HighlightStyle.define([
  { tag: tags.keyword, color: "var(--syntax-keyword)", fontWeight: "600" },
  { tag: tags.atom, color: "var(--syntax-atom)" },
  { tag: tags.number, color: "var(--syntax-number)" },
  { tag: tags.string, color: "var(--syntax-string)" },
  { tag: tags.special(tags.string), color: "var(--syntax-string)" },
  { tag: tags.comment, color: "var(--syntax-comment)", fontStyle: "italic" },
  { tag: tags.standard(tags.variableName), color: "var(--syntax-builtin)" },
  { tag: tags.meta, color: "var(--syntax-meta)" },
  { tag: tags.bracket, color: "var(--syntax-bracket)" },
  { tag: tags.invalid, color: "var(--syntax-invalid)" },
]);

export interface ProgramEditor {
  readonly view: EditorView;
  getText(): string;
  setText(text: string): void;
  markError(mark: ErrorMark | null): void;
  /** Puts the cursor at a line and column and scrolls there. */
  focusAt(mark: ErrorMark): void;
}

export interface ProgramEditorOptions {
  readonly parent: HTMLElement;
  readonly text: string;
  readonly onRun: () => void;
  readonly onChange?: () => void;
}

export function createProgramEditor(options: ProgramEditorOptions): ProgramEditor {
  const runKeys = keymap.of([
    {
      key: "Mod-Enter",
      preventDefault: true,
      run: () => {
        options.onRun();
        return true;
      },
    },
  ]);
  const extensions: Extension[] = [
    // Before the default keymap, which binds Mod-Enter to "insert blank line".
    runKeys,
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    closeBrackets(),
    highlightActiveLine(),
    StreamLanguage.define(clojure),
    syntaxHighlighting(highlightStyle),
    theme,
    errorField,
    // Programs are read more than scrolled: long lines wrap.
    EditorView.lineWrapping,
    keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
    EditorView.contentAttributes.of({ "aria-label": "PTC-Lisp program", "data-testid": "program" }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) options.onChange?.();
    }),
  ];
  const shadow = options.parent.attachShadow({ mode: "open" });
  const view = new EditorView({
    root: shadow,
    parent: shadow,
    state: EditorState.create({ doc: options.text, extensions }),
  });
  const positionOf = (mark: ErrorMark): number => {
    const line = view.state.doc.line(Math.min(Math.max(mark.line, 1), view.state.doc.lines));
    return Math.min(line.from + Math.max(mark.column - 1, 0), line.to);
  };
  return {
    view,
    getText: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    markError(mark) {
      view.dispatch({
        effects: [
          setErrorMark.of(mark),
          ...(mark === null ? [] : [EditorView.scrollIntoView(positionOf(mark), { y: "center" })]),
        ],
      });
    },
    focusAt(mark) {
      view.dispatch({ selection: { anchor: positionOf(mark) }, scrollIntoView: true });
      view.focus();
    },
  };
}

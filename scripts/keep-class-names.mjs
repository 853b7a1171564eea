// An esbuild plugin for the packages' builds (tsup.config.ts): with identifiers minified, esbuild
// renames every class (`var Pe=class ...`), and a class's `name` is then `Pe`. Class names are
// read where users and our own messages see them: `console.log(keyword)` prints `Keyword {...}`,
// a tool's argument check says "got LispMap", @ptc/tool's cache keys label class instances by
// name. esbuild's own `keepNames` keeps them, but also wraps every function in a `__name` call
// run at import (about 800 in @ptc/lisp), which costs more cold start than renaming saves.
// This plugin gives back only the class names: each top-level class declaration of our sources
// is followed, on the line of its closing brace, by a statement that sets its `name`, one
// `defineProperty` per class at import.
//
// A statement after the class rather than a static block inside it: V8 compiles a static block as
// a function of its own (parsed, compiled to bytecode and called while the class is defined),
// which for @ptc/lisp's 54 classes cost about 2 M instructions of a cold import; a top-level call
// is a few bytecodes of the module's own code. The one difference, a static initializer of the
// class itself seeing the minified name, does not arise: no class reads its own `name` statically.
//
// Nothing is inserted before the end of a class, so no position before it moves and the source
// maps stay exact.
import { readFile } from "node:fs/promises";
import ts from "typescript";

/** The source with a name-setting statement after each top-level named class declaration. */
export function withClassNames(source, fileName = "source.ts") {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const ends = [];
  for (const statement of file.statements) {
    if (!ts.isClassDeclaration(statement) || statement.name === undefined) continue;
    // `declare class` has no runtime value to name.
    if (statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.DeclareKeyword)) continue;
    ends.push([statement.end, statement.name.text]);
  }
  let text = source;
  for (const [end, name] of ends.reverse()) {
    const naming = ` Object.defineProperty(${name}, "name", { value: ${JSON.stringify(name)} });`;
    text = text.slice(0, end) + naming + text.slice(end);
  }
  return text;
}

export const keepClassNames = {
  name: "keep-class-names",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      if (args.path.includes("node_modules")) return undefined;
      return { contents: withClassNames(await readFile(args.path, "utf8"), args.path), loader: "ts" };
    });
  },
};

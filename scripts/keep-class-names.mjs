// An esbuild plugin for the packages' builds (tsup.config.ts): with identifiers minified, esbuild
// renames every class (`var Pe=class ...`), and a class's `name` is then `Pe`. Class names are
// read where users and our own messages see them: `console.log(keyword)` prints `Keyword {...}`,
// a tool's argument check says "got LispMap", @ptc/tool's cache keys label class instances by
// name. esbuild's own `keepNames` keeps them, but also wraps every function in a `__name` call
// run at import (about 800 in @ptc/lisp), which costs more cold start than renaming saves.
// This plugin gives back only the class names: each top-level class declaration of our sources
// gets a static block that sets its `name`, one `defineProperty` per class at import.
// The block is added after the opening brace at the end of the declaration's line, so no
// position before it moves and the source maps stay exact.
import { readFile } from "node:fs/promises";

/** `class Name ... {` or `class Name ... {}` alone on a line, possibly exported or abstract. */
const DECLARATION = /^((?:export )?(?:default )?(?:abstract )?class (\w+)\b[^\n]*?\{)(\}?)$/gm;

/** The source with a name-setting static block in each top-level class declaration. */
export function withClassNames(source) {
  return source.replace(
    DECLARATION,
    (_, head, name, close) =>
      `${head} static { Object.defineProperty(this, "name", { value: ${JSON.stringify(name)} }); }${close}`,
  );
}

export const keepClassNames = {
  name: "keep-class-names",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      if (args.path.includes("node_modules")) return undefined;
      return { contents: withClassNames(await readFile(args.path, "utf8")), loader: "ts" };
    });
  },
};

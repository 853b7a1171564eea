#!/usr/bin/env node
// Proves that built entries run in browsers and edge runtimes (Cloudflare Workers, Vercel Edge,
// Deno Deploy): walks the module graph from each entry through relative imports, parses every
// file, and fails on any import of a Node built-in (`node:fs`, `worker_threads`...) and on any free
// reference to a Node global (`process`, `Buffer`, `require`, `__dirname`...). Reading a global
// that may be absent through `globalThis` (`globalThis.process?.env`) is the sanctioned way and
// passes. Node-only code belongs in a subpath of its own (`@ptc/lisp/node`). Run after the build:
//   node ../../scripts/check-edge-safe.mjs dist/index.js [dist/testing/index.js ...]
import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** Node's globals that browsers and edge runtimes lack (or that mean something else there). */
const NODE_GLOBALS = new Set([
  "process",
  "Buffer",
  "global",
  "require",
  "module",
  "exports",
  "__dirname",
  "__filename",
  "setImmediate",
  "clearImmediate",
]);
const BUILTINS = new Set(builtinModules);

function isNodeBuiltin(specifier) {
  return specifier.startsWith("node:") || BUILTINS.has(specifier) || BUILTINS.has(specifier.split("/")[0]);
}

/** Names the file declares itself (a local `module` is not Node's): every binding identifier. */
function declaredNames(source) {
  const names = new Set();
  const addBinding = (name) => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else if (ts.isObjectBindingPattern(name) || ts.isArrayBindingPattern(name))
      for (const element of name.elements) if (!ts.isOmittedExpression(element)) addBinding(element.name);
  };
  const visit = (node) => {
    if (
      ts.isVariableDeclaration(node) ||
      ts.isParameter(node) ||
      ts.isBindingElement(node) ||
      ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isClassDeclaration(node) ||
      ts.isClassExpression(node) ||
      ts.isImportSpecifier(node) ||
      ts.isNamespaceImport(node) ||
      ts.isImportClause(node)
    ) {
      if (node.name !== undefined) addBinding(node.name);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** Whether an identifier is a name in a position that refers to no variable (`x.process`, `{ process: 1 }`). */
function isNotAReference(node) {
  const parent = node.parent;
  if (parent === undefined) return false;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return true;
  if (ts.isQualifiedName(parent) && parent.right === node) return true;
  if (
    (ts.isPropertyAssignment(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isGetAccessorDeclaration(parent) ||
      ts.isSetAccessorDeclaration(parent) ||
      ts.isPropertySignature(parent)) &&
    parent.name === node
  )
    return true;
  if ((ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent)) && parent.propertyName === node)
    return true;
  if (ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent)) return true;
  return false;
}

/** The Node-only uses in one file's text, and the relative modules it imports. */
export function scanModule(text, fileName = "module.js") {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const declared = declaredNames(source);
  const problems = [];
  const imports = [];
  const where = (node) => {
    const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
    return `${line + 1}:${character + 1}`;
  };
  const noteSpecifier = (literal) => {
    const specifier = literal.text;
    if (specifier.startsWith(".")) imports.push(specifier);
    else if (isNodeBuiltin(specifier))
      problems.push({ at: where(literal), what: `imports the Node built-in "${specifier}"` });
  };
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      noteSpecifier(node.moduleSpecifier);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      noteSpecifier(node.arguments[0]);
    } else if (
      ts.isIdentifier(node) &&
      NODE_GLOBALS.has(node.text) &&
      !declared.has(node.text) &&
      !isNotAReference(node)
    ) {
      problems.push({ at: where(node), what: `uses the Node global \`${node.text}\`` });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { problems, imports };
}

/** Every Node-only use reachable from the entries: `{ entry, file, at, what }`. */
export function checkEntries(entries) {
  const found = [];
  for (const entry of entries) {
    const seen = new Set();
    const queue = [resolve(entry)];
    while (queue.length > 0) {
      const file = queue.pop();
      if (seen.has(file)) continue;
      seen.add(file);
      if (!existsSync(file)) {
        found.push({ entry, file, at: "", what: "is missing: build the package first" });
        continue;
      }
      const { problems, imports } = scanModule(readFileSync(file, "utf8"), file);
      for (const problem of problems) found.push({ entry, file, ...problem });
      for (const specifier of imports) queue.push(resolve(dirname(file), specifier));
    }
  }
  return found;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const entries = process.argv.slice(2);
  if (entries.length === 0) {
    console.error("usage: check-edge-safe.mjs dist/index.js [more built entries]");
    process.exit(2);
  }
  const found = checkEntries(entries);
  if (found.length > 0) {
    for (const { entry, file, at, what } of found)
      console.error(
        `${relative(process.cwd(), file)}${at === "" ? "" : `:${at}`} (reached from ${entry}) ${what}`,
      );
    console.error(
      "\nThese entries must load in browsers and edge runtimes: move Node-only code to a subpath of its own " +
        "(like @ptc/lisp/node), or read an optional global through globalThis (globalThis.process?.env).",
    );
    process.exit(1);
  }
  console.log(`edge-safe: ${entries.join(", ")}: no Node built-in imported, no Node global named`);
}

/**
 * withoutEvalCache, on plain `new Function` sources shaped like Ajv's: the function still works,
 * and long sources of the same length (which V8's eval cache kept without it: 22 MB for the 500
 * below on Node 20) leave nothing behind.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { withoutEvalCache } from "./uncached-validator-code.js";

// `gc` is not exposed to tests by default; this turns it on for this process.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Shaped like Ajv's code: statements, then `return` of the validate function (no semicolon). */
function generatedSource(n: number): string {
  let body = "let errors = 0;\n";
  for (let p = 0; p < 400; p++)
    body += `if (data.k${String(n).padStart(5, "0")}_${p} !== undefined) errors++;\n`;
  return `const tag = scope.tag;\nreturn function validate(data) {\n${body}return errors === 0;\n}`;
}

describe("withoutEvalCache", () => {
  it("leaves the generated function working: the appended template tags nothing", () => {
    const make = new Function("self", "scope", withoutEvalCache(generatedSource(1)));
    const validate = make({}, { tag: 1 });
    expect(typeof validate).toBe("function");
    expect(validate({})).toBe(true);
    expect(validate({ k00001_3: 1 })).toBe(false);
  });

  it("keeps nothing of different long sources of the same length once their functions are gone", () => {
    // Over 16,383 characters, and all the same length: what V8's eval cache used to keep.
    expect(generatedSource(1).length).toBeGreaterThan(16_383);
    expect(generatedSource(2).length).toBe(generatedSource(1).length);
    const compile = (from: number, count: number) => {
      for (let n = from; n < from + count; n++) {
        new Function("self", "scope", withoutEvalCache(generatedSource(n)))({}, {})({});
      }
    };
    compile(0, 50);
    gc();
    const before = process.memoryUsage().heapUsed;
    compile(50, 500);
    gc();
    gc();
    // Cached, 500 of these kept about 20 MB (40 KB each); uncached, nothing but noise.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(4 * 1024 * 1024);
  });
});

import { codeGenerationStatus, format, run, setCodeGeneration } from "@ptc/lisp";

// A page whose Content-Security-Policy has no 'unsafe-eval', or an edge runtime: say so before
// the first run, and @ptc/lisp never calls `new Function`, not even to find out whether it may.
setCodeGeneration("off");

export async function main(): Promise<string> {
  const result = await run("(->> data/rows (filter #(> (:n %) 1)) (map :n) (reduce +))", {
    context: { rows: [{ n: 1 }, { n: 2 }, { n: 3 }] },
  });
  if (!result.ok) throw new Error(`${result.error.reason}: ${result.error.message}`);
  console.log(format(result.value), codeGenerationStatus()); // 5 off
  return format(result.value);
}

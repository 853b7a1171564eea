// A new ten-line program over empty data, run many times with a new text each time: the fixed cost
// of a fresh program (reading, analysis, compilation, a run context, the result), with no data to
// process. `node packages/lisp/bench/fixed-cost.mjs [runs] [engine]` prints the median in ms.
const runs = Number(process.argv[2] ?? 2000);
const engine = process.argv[3] || undefined;
const { run } = await import(
  process.env.PTC_LISP_MODULE ?? new URL("../dist/index.js", import.meta.url).href
);
const program = (nonce) => `(def rows (or data/rows []))
(defn total [row] (* (:amount row 0) (:quantity row 1)))
(let [nonce ${nonce}
      paid (filter #(= (:status %) "paid") rows)
      by-region (group-by :region paid)
      totals (map (fn [[region rs]] {:region region :total (reduce + 0 (map total rs))}) by-region)]
  {:count (count paid)
   :top (take 3 (sort-by :total > totals))
   :regions (vec (keys by-region))
   :label (str "paid orders: " (count paid))})`;
const options = engine === undefined ? { context: {} } : { context: {}, engine };
const times = [];
for (let i = 0; i < runs; i++) {
  const source = program(i);
  const t0 = performance.now();
  const result = await run(source, options);
  times.push(performance.now() - t0);
  if (!result.ok) throw new Error(result.error.message);
}
times.sort((a, b) => a - b);
const at = (q) => times[Math.floor(q * (times.length - 1))];
console.log(
  `fresh 10-line program over empty data: median ${at(0.5).toFixed(4)} ms (p10 ${at(0.1).toFixed(4)}, p90 ${at(0.9).toFixed(4)}), ${runs} runs`,
);

// Programs whose outcomes must not depend on whether code may be generated: values, output, tool
// calls, and errors with their reasons, messages and positions. Read by no-eval.test.ts (Node,
// with and without `--disallow-code-generation-from-strings`) and by the playground's browser
// tests (a page under a CSP without 'unsafe-eval'); no-eval-outcomes.json holds what generated
// code gives for each (`UPDATE_FIXTURES=1` rewrites it from the fast engine).
//
// Each entry: { name, program, context?, tools? (name -> JSON result), limits? }. Several are hot
// on purpose: 2,500 host rows read by keyword (field readers) and fns called thousands of times
// (the adaptive tier's promotions), so generated code would run if it could.

/** Host rows, as a tool result or a context would hold them. */
export function orderRows(count) {
  const rows = [];
  for (let i = 0; i < count; i++) {
    rows.push({
      id: i,
      customer: `c${i % 17}`,
      amount: (i * 37) % 1000,
      status: i % 3 === 0 ? "paid" : i % 3 === 1 ? "open" : "refunded",
      quantity: i % 9,
    });
  }
  return rows;
}

const orders = orderRows(2500);

export const corpus = [
  { name: "arithmetic", program: "(+ 1 (* 2 3) (/ 10 4))" },
  { name: "strings", program: '(str/join ", " (map str/upper-case ["a" "b" "c"]))' },
  {
    name: "top customers",
    program: `(->> data/orders
     (filter #(= (:status %) "paid"))
     (group-by :customer)
     (map (fn [[customer rows]] {:customer customer :total (sum-by :amount rows)}))
     (sort-by :total >)
     (take 3))`,
    context: { orders },
  },
  {
    name: "count filter over many rows",
    program: "(count (filter #(> (:amount %) 500) data/orders))",
    context: { orders },
  },
  {
    name: "reduce with a literal fn",
    program: "(reduce (fn [acc o] (+ acc (* (:quantity o) (:amount o)))) 0 data/orders)",
    context: { orders },
  },
  {
    name: "frequencies and max-key",
    program: "(let [f (frequencies (map :status data/orders))] [f (key (apply max-key val f))])",
    context: { orders },
  },
  {
    name: "group-by a keyword",
    program: "(into {} (map (fn [[k v]] [k (count v)]) (group-by :customer data/orders)))",
    context: { orders },
  },
  {
    name: "a hot defn",
    program: "(defn sq [x] (* x x))\n(reduce + (map sq (range 3000)))",
  },
  { name: "loop/recur", program: "(loop [i 0 acc 0] (if (< i 5000) (recur (inc i) (+ acc i)) acc))" },
  { name: "recursion", program: "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))\n(fib 15)" },
  { name: "floats", program: "[(+ 0.5 0.5) (* 1.5 2) (float? 2.0) (str 2.0) (/ 1 3)]" },
  { name: "big integers", program: "(reduce * (range 1 25))" },
  { name: "for with :let and :when", program: "(for [x (range 10) :let [y (* x x)] :when (odd? x)] y)" },
  { name: "destructuring", program: "(let [{:keys [a b] :or {b 5}} {:a 1} [x & more] [1 2 3]] [a b x more])" },
  { name: "sets and maps", program: "[(conj #{1 2} 3) (assoc {:a 1} :b 2) (merge-with + {:a 1} {:a 2 :b 3})]" },
  { name: "println", program: '(println "rows:" (count data/orders))\n(println {:a 1})\n:done', context: { orders } },
  {
    name: "a tool call",
    program: "(let [users (tool/list-users {:active true})] (mapv :name users))",
    tools: { list_users: [{ name: "Ada" }, { name: "Grace" }] },
  },
  { name: "return", program: "(let [x 3] (when (> x 2) (return (* x 10))) :never)" },
  { name: "update-in accumulator", program: "(reduce (fn [m o] (update-in m [(:status o) :n] (fnil inc 0))) {} data/orders)", context: { orders } },
  // Errors: each must keep its reason, message and position.
  { name: "parse error", program: "(let [x 1]\n  (+ x 2)" },
  { name: "unbound symbol", program: "(let [total 1]\n  (+ totl 2))" },
  { name: "type error in arithmetic", program: '(let [x "a"]\n  (inc x))' },
  { name: "type error in a hot fn", program: '(mapv (fn [o] (+ (:amount o) (:customer o))) data/orders)', context: { orders } },
  { name: "arity error", program: "(defn f [a b] (+ a b))\n(f 1)" },
  { name: "division by zero", program: "(let [n 0]\n  (/ 10 n))" },
  { name: "fail", program: '(fail {:why "no data"})' },
  { name: "not callable", program: "(1 2 3)" },
  { name: "unknown tool", program: "(tool/missing {})", tools: { list_users: [] } },
  { name: "loop limit", program: "(loop [i 0] (recur (inc i)))", limits: { maxIterations: 10000 } },
  { name: "memory limit", program: "(count (mapv (fn [i] [i i i i]) (range 100000)))", limits: { maxMemoryBytes: 100000 } },
  // A browser worker's stack is about half of Node's: deep recursion can run out of host stack
  // before a depth of 1,000 there (docs/edge.md), so the limit is set where every host reaches it.
  {
    name: "recursion limit",
    program: "(defn down [n] (if (= n 0) 0 (inc (down (dec n)))))\n(down 5000)",
    limits: { maxDepth: 200 },
  },
  {
    name: "error after a hot loop",
    program: '(loop [i 0 acc 0]\n  (if (< i 3000)\n    (recur (inc i) (+ acc i))\n    (+ acc "x")))',
  },
];

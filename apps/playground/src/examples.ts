/**
 * The programs a visitor can pick from: the README's two examples with mock tools that make them
 * run, the repository's example report over its orders, a short tour, an error to see located, and
 * a runaway loop to see stopped.
 */
import orders from "../../../examples/orders.json" with { type: "json" };
import topCustomers from "../../../examples/top-customers.clj";
import type { PlaygroundState } from "./share/share-state.js";

export interface Example extends PlaygroundState {
  readonly id: string;
  readonly title: string;
}

const json = (value: unknown): string => JSON.stringify(value, null, 2);

const paidOrders = [
  { id: 1, customer: "Acme Corp", amount: 1200, status: "paid" },
  { id: 2, customer: "Globex", amount: 640, status: "paid" },
  { id: 3, customer: "Acme Corp", amount: 310, status: "paid" },
  { id: 4, customer: "Initech", amount: 980, status: "paid" },
  { id: 5, customer: "Globex", amount: 875, status: "paid" },
  { id: 6, customer: "Umbrella Health", amount: 450, status: "paid" },
];

export const EXAMPLES: readonly Example[] = [
  {
    id: "top-customers",
    title: "Top customers (README)",
    program: `;; "Which customers spent the most on paid orders?"
(->> (tool/list-orders {:status "paid"})
     (group-by :customer)
     (map (fn [[customer orders]] {:customer customer :total (sum-by :amount orders)}))
     (sort-by :total >)
     (take 3))`,
    context: "{}",
    tools: [{ name: "list_orders", result: json(paidOrders) }],
  },
  {
    id: "paid-total",
    title: "Paid revenue since a date (README)",
    program: `(->> (tool/orders {:since "2024-01-01"})
     (filter #(= (:status %) "paid"))
     (sum-by :amount))`,
    context: "{}",
    tools: [
      {
        name: "orders",
        result: json([
          { id: 1, amount: 120.5, status: "paid" },
          { id: 2, amount: 80, status: "refunded" },
          { id: 3, amount: 42.25, status: "paid" },
        ]),
      },
    ],
  },
  {
    id: "report",
    title: "Top customers report (examples/)",
    program: topCustomers.trim(),
    context: json(orders),
    tools: [],
  },
  {
    id: "tour",
    title: "A short tour",
    program: `;; Bind names with def and let; functions with defn, fn or #(...).
(defn square [x] (* x x))
(def xs (range 1 6))

(println "squares:" (mapv square xs))

;; Maps and keywords: a keyword looks itself up.
(let [point {:x 3 :y 4}
      {:keys [x y]} point]
  (println "distance:" (Math/sqrt (+ (square x) (square y)))))

;; loop/recur for anything that is not a walk over a collection.
(loop [n 10 steps 0]
  (if (= n 1)
    {:collatz-steps steps}
    (recur (if (even? n) (quot n 2) (inc (* 3 n))) (inc steps))))`,
    context: "{}",
    tools: [],
  },
  {
    id: "error",
    title: "An error, located",
    program: `(def orders [{:id 1 :total 30} {:id 2 :total "120"}])

;; One total is a string: + says which values it got, and where.
(reduce + (map :total orders))`,
    context: "{}",
    tools: [],
  },
  {
    id: "runaway",
    title: "A runaway loop",
    program: `;; Never ends on its own: the iteration limit (or the time limit) stops it,
;; and the page stays responsive while it runs.
(loop [i 0]
  (recur (inc i)))`,
    context: "{}",
    tools: [],
  },
];

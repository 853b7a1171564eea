// Benchmark cases: an LLM-style PTC-Lisp program and the hand-written JavaScript that does the same
// work, written the way a competent JS developer would (array methods, Maps, plain loops).
// Each case checks that both sides compute the same answer before anything is timed.

const fibArgument = (rows) => (rows <= 1000 ? 15 : rows <= 10000 ? 20 : 24);

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

export const cases = [
  {
    name: "filter+count",
    lisp: () => `(count (filter #(and (= (:status %) "paid") (> (:amount %) 500)) data/orders))`,
    js: ({ orders }) => orders.filter((o) => o.status === "paid" && o.amount > 500).length,
  },
  {
    name: "group-by+aggregate",
    lisp: () => `(->> data/orders
       (group-by :region)
       (map (fn [[region rows]] [region {:total (sum-by :amount rows) :count (count rows)}]))
       (into {}))`,
    js: ({ orders }) => {
      const groups = new Map();
      for (const o of orders) {
        let g = groups.get(o.region);
        if (g === undefined) {
          g = { total: 0, count: 0 };
          groups.set(o.region, g);
        }
        g.total += o.amount;
        g.count += 1;
      }
      return Object.fromEntries(groups);
    },
  },
  {
    name: "sort-by top-N",
    lisp: () => `(->> data/orders (sort-by :amount >) (take 10) (mapv :id))`,
    js: ({ orders }) =>
      [...orders]
        .sort((a, b) => b.amount - a.amount)
        .slice(0, 10)
        .map((o) => o.id),
  },
  {
    name: "log lines",
    lisp: () => `(->> data/logs
       (filter #(str/includes? % " ERROR "))
       (map #(nth (str/split % " ") 2))
       frequencies)`,
    js: ({ logs }) => {
      const counts = {};
      for (const line of logs) {
        if (!line.includes(" ERROR ")) continue;
        const service = line.split(" ")[2];
        counts[service] = (counts[service] ?? 0) + 1;
      }
      return counts;
    },
  },
  {
    name: "nested update-in",
    lisp: () => `(reduce (fn [acc o] (update-in acc [(:region o) (:status o)] (fnil + 0) (:quantity o)))
        {}
        data/orders)`,
    js: ({ orders }) => {
      const acc = {};
      for (const o of orders) {
        acc[o.region] ??= {};
        const region = acc[o.region];
        region[o.status] = (region[o.status] ?? 0) + o.quantity;
      }
      return acc;
    },
  },
  {
    name: "join via index",
    lisp: () => `(let [by-id (into {} (map (juxt :id identity) data/customers))]
  (->> data/orders
       (filter #(= "gold" (:tier (get by-id (:customer_id %)))))
       (map :amount)
       (reduce + 0)))`,
    js: ({ orders, customers }) => {
      const byId = new Map(customers.map((c) => [c.id, c]));
      let total = 0;
      for (const o of orders) if (byId.get(o.customer_id)?.tier === "gold") total += o.amount;
      return total;
    },
  },
  {
    name: "destructuring",
    lisp: () => `(reduce (fn [acc {:keys [amount quantity]}] (+ acc (* amount quantity))) 0 data/orders)`,
    js: ({ orders }) => orders.reduce((acc, { amount, quantity }) => acc + amount * quantity, 0),
  },
  {
    name: "loop/recur",
    lisp: (rows) => `(loop [i 0 acc 0] (if (< i ${rows}) (recur (inc i) (+ acc (* i i))) acc))`,
    js: (_data, rows) => {
      let acc = 0;
      for (let i = 0; i < rows; i++) acc += i * i;
      return acc;
    },
  },
  {
    name: "recursive fib",
    lisp: (rows) =>
      `(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))) (fib ${fibArgument(rows)})`,
    js: (_data, rows) => fib(fibArgument(rows)),
  },
];

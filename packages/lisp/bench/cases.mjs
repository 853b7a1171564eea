// Benchmark cases: an LLM-style PTC-Lisp program and the hand-written JavaScript that does the same
// work, written the way a competent JS developer would (array methods, Maps, plain loops).
// Each case checks that both sides compute the same answer before anything is timed.
//
// `lisp(rows, nonce)` returns the program text. The nonce is an integer bound by a `let` that the
// program never reads: a new nonce makes a new program text (a miss in the compiled-program cache)
// and new generated JavaScript (a miss in the code generator's factory cache, so V8 starts the
// program's code cold). It must sit where every compiled unit of the program sees it, so a program
// with a `defn` carries it inside the function too; `node bench/fresh-check.mjs` verifies that.
//
// `js(data, rows)` must not use any name from this module: fresh mode recompiles it from its text
// with `new Function`, so that the JavaScript side starts cold too.

/** Wraps a program in a binding of the nonce: nothing reads it, and the answer does not change. */
const fresh = (nonce, body) => `(let [nonce ${nonce}]\n${body})`;

const fibArgument = (rows) => (rows <= 1000 ? 15 : rows <= 10000 ? 20 : 24);

export const cases = [
  {
    name: "count filter",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(nonce, `(count (filter #(and (= (:status %) "paid") (> (:amount %) 500)) data/orders))`),
    js: ({ orders }) => orders.filter((o) => o.status === "paid" && o.amount > 500).length,
  },
  {
    name: "group-by+aggregate",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> data/orders
     (group-by :region)
     (map (fn [[region rows]] [region {:total (sum-by :amount rows) :count (count rows)}]))
     (into {}))`,
      ),
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
    name: "group-by sum-by top-N",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> data/orders
     (group-by :customer_id)
     (map (fn [[id orders]] {:customer id :total (sum-by :amount orders) :orders (count orders)}))
     (sort-by :total >)
     (take 10))`,
      ),
    js: ({ orders }) => {
      const totals = new Map();
      for (const o of orders) {
        const t = totals.get(o.customer_id);
        if (t === undefined)
          totals.set(o.customer_id, { customer: o.customer_id, total: o.amount, orders: 1 });
        else {
          t.total += o.amount;
          t.orders += 1;
        }
      }
      return [...totals.values()].sort((a, b) => b.total - a.total).slice(0, 10);
    },
  },
  {
    name: "sort-by > top-N",
    uses: ["orders"],
    lisp: (_rows, nonce) => fresh(nonce, `(->> data/orders (sort-by :amount >) (take 10) (mapv :id))`),
    js: ({ orders }) =>
      [...orders]
        .sort((a, b) => b.amount - a.amount)
        .slice(0, 10)
        .map((o) => o.id),
  },
  {
    name: "sort-by juxt compare",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> data/orders
     (sort-by (juxt :region :amount) #(compare %2 %1))
     (take 20)
     (mapv :id))`,
      ),
    js: ({ orders }) =>
      [...orders]
        .sort((a, b) => (a.region === b.region ? b.amount - a.amount : a.region < b.region ? 1 : -1))
        .slice(0, 20)
        .map((o) => o.id),
  },
  {
    name: "log lines",
    uses: ["logs"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> data/logs
     (filter #(str/includes? % " ERROR "))
     (map #(nth (str/split % " ") 2))
     frequencies)`,
      ),
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
    name: "regex extract max",
    uses: ["logs"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> data/logs
     (filter #(str/includes? % "service=api"))
     (keep #(second (re-find #"latency=(\\d+)ms" %)))
     (map parse-long)
     (reduce max 0))`,
      ),
    js: ({ logs }) => {
      let max = 0;
      for (const line of logs) {
        if (!line.includes("service=api")) continue;
        const match = /latency=(\d+)ms/.exec(line);
        if (match !== null) max = Math.max(max, Number.parseInt(match[1], 10));
      }
      return max;
    },
  },
  {
    name: "nested update-in acc",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(reduce (fn [acc o] (update-in acc [(:region o) (:status o)] (fnil + 0) (:quantity o)))
        {}
        data/orders)`,
      ),
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
    name: "merge-with reduce",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(nonce, `(reduce (fn [acc o] (merge-with + acc {(:product o) (:quantity o)})) {} data/orders)`),
    js: ({ orders }) => {
      const totals = {};
      for (const o of orders) totals[o.product] = (totals[o.product] ?? 0) + o.quantity;
      return totals;
    },
  },
  {
    name: "apply merge-with",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(nonce, `(apply merge-with + (map (fn [o] {(:status o) (:amount o)}) data/orders))`),
    js: ({ orders }) => {
      const totals = {};
      for (const o of orders) totals[o.status] = (totals[o.status] ?? 0) + o.amount;
      return totals;
    },
  },
  {
    name: "join via index",
    uses: ["orders", "customers"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(let [by-id (into {} (map (juxt :id identity) data/customers))]
  (->> data/orders
       (filter #(= "gold" (:tier (get by-id (:customer_id %)))))
       (map :amount)
       (reduce + 0)))`,
      ),
    js: ({ orders, customers }) => {
      const byId = new Map(customers.map((c) => [c.id, c]));
      let total = 0;
      for (const o of orders) if (byId.get(o.customer_id)?.tier === "gold") total += o.amount;
      return total;
    },
  },
  {
    name: "join assoc onto rows",
    uses: ["orders", "customers"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(let [by-id (into {} (map (juxt :id identity) data/customers))]
  (->> data/orders
       (map (fn [o] (let [c (by-id (:customer_id o))] (assoc o :customer (:name c) :tier (:tier c)))))
       (filter #(= (:tier %) "gold"))
       (mapv #(select-keys % [:id :customer :amount]))))`,
      ),
    js: ({ orders, customers }) => {
      const byId = new Map(customers.map((c) => [c.id, c]));
      return orders
        .map((o) => {
          const c = byId.get(o.customer_id);
          return { ...o, customer: c?.name ?? null, tier: c?.tier ?? null };
        })
        .filter((o) => o.tier === "gold")
        .map(({ id, customer, amount }) => ({ id, customer, amount }));
    },
  },
  {
    name: "destructuring reduce",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(nonce, `(reduce (fn [acc {:keys [amount quantity]}] (+ acc (* amount quantity))) 0 data/orders)`),
    js: ({ orders }) => orders.reduce((acc, { amount, quantity }) => acc + amount * quantity, 0),
  },
  {
    name: "destructuring filter",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> data/orders
     (filter (fn [{:keys [status region]}] (and (= status "refunded") (= region "north"))))
     (map (fn [{:keys [id amount quantity]}] {:id id :value (* amount quantity)}))
     (filter (fn [{:keys [value]}] (> value 4000)))
     count)`,
      ),
    js: ({ orders }) =>
      orders
        .filter(({ status, region }) => status === "refunded" && region === "north")
        .map(({ id, amount, quantity }) => ({ id, value: amount * quantity }))
        .filter(({ value }) => value > 4000).length,
  },
  {
    name: "interleave partition take",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> (interleave (map :amount data/orders) (map :quantity data/orders))
     (partition 2)
     (map (fn [[amount quantity]] (* amount quantity)))
     (take 100)
     (reduce + 0))`,
      ),
    js: ({ orders }) => {
      let total = 0;
      for (const o of orders.slice(0, 100)) total += o.amount * o.quantity;
      return total;
    },
  },
  {
    name: "partition window take",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> data/orders
     (map :amount)
     (partition 3 1)
     (map #(/ (apply + %) 3))
     (filter #(> % 800))
     (take 5))`,
      ),
    js: ({ orders }) => {
      const out = [];
      for (let i = 0; i + 2 < orders.length && out.length < 5; i++) {
        const mean = (orders[i].amount + orders[i + 1].amount + orders[i + 2].amount) / 3;
        if (mean > 800) out.push(mean);
      }
      return out;
    },
  },
  {
    name: "assoc onto rows",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(nonce, `(mapv #(assoc % :total (* (:amount %) (:quantity %))) data/orders)`),
    js: ({ orders }) => orders.map((o) => ({ ...o, total: o.amount * o.quantity })),
  },
  {
    name: "update/update-in rows",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> data/orders
     (map #(update % :amount * 1.2))
     (map #(update-in % [:quantity] inc))
     (reduce (fn [sum o] (+ sum (* (:amount o) (:quantity o)))) 0))`,
      ),
    js: ({ orders }) =>
      orders
        .map((o) => ({ ...o, amount: o.amount * 1.2, quantity: o.quantity + 1 }))
        .reduce((sum, o) => sum + o.amount * o.quantity, 0),
  },
  {
    name: "assoc-in rows",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> data/orders
     (map #(assoc-in % [:flags :large] (> (:amount %) 500)))
     (filter #(get-in % [:flags :large]))
     count)`,
      ),
    js: ({ orders }) =>
      orders.map((o) => ({ ...o, flags: { large: o.amount > 500 } })).filter((o) => o.flags.large).length,
  },
  {
    name: "for :when",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(for [o data/orders :when (and (= (:status o) "paid") (> (:quantity o) 5))]
  {:id (:id o) :total (* (:amount o) (:quantity o))})`,
      ),
    js: ({ orders }) => {
      const out = [];
      for (const o of orders) {
        if (o.status === "paid" && o.quantity > 5) out.push({ id: o.id, total: o.amount * o.quantity });
      }
      return out;
    },
  },
  {
    name: "reduce conj",
    uses: ["orders"],
    lisp: (_rows, nonce) => fresh(nonce, `(count (reduce conj [] data/orders))`),
    js: ({ orders }) => {
      const out = [];
      for (const o of orders) out.push(o);
      return out.length;
    },
  },
  {
    name: "frequencies vector keys",
    uses: ["orders"],
    lisp: (_rows, nonce) => fresh(nonce, `(->> data/orders (map (juxt :region :status)) frequencies)`),
    js: ({ orders }) => {
      // Keys written as PTC-Lisp prints a vector key, so that both answers compare as JSON.
      const counts = new Map();
      for (const o of orders) {
        const key = `[${JSON.stringify(o.region)} ${JSON.stringify(o.status)}]`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return Object.fromEntries(counts);
    },
  },
  {
    name: "distinct count",
    uses: ["orders"],
    lisp: (_rows, nonce) => fresh(nonce, `(->> data/orders (map :customer_id) distinct count)`),
    js: ({ orders }) => new Set(orders.map((o) => o.customer_id)).size,
  },
  {
    name: "distinct vector keys",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(nonce, `(->> data/orders (map (juxt :region :product)) distinct (take 20))`),
    js: ({ orders }) => {
      const seen = new Set();
      const out = [];
      for (const o of orders) {
        const key = `${o.region}\u0000${o.product}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push([o.region, o.product]);
        // Stops at 20, as the Lisp does: `distinct` under `take` is lazy.
        if (out.length === 20) break;
      }
      return out;
    },
  },
  {
    name: "str/join report",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> data/orders
     (filter #(= (:region %) "east"))
     (map #(str (:id %) " " (:product %) ": " (:amount %) " x" (:quantity %)))
     (str/join "\\n"))`,
      ),
    js: ({ orders }) =>
      orders
        .filter((o) => o.region === "east")
        .map((o) => `${o.id} ${o.product}: ${o.amount} x${o.quantity}`)
        .join("\n"),
  },
  {
    name: "select-keys projection",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> data/orders (filter #(> (:quantity %) 7)) (mapv #(select-keys % [:id :region :amount])))`,
      ),
    js: ({ orders }) =>
      orders.filter((o) => o.quantity > 7).map(({ id, region, amount }) => ({ id, region, amount })),
  },
  {
    name: "apply max",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(nonce, `(->> data/orders (filter #(= "pending" (:status %))) (map :amount) (apply max))`),
    js: ({ orders }) => {
      let max = Number.NEGATIVE_INFINITY;
      for (const o of orders) if (o.status === "pending" && o.amount > max) max = o.amount;
      return max;
    },
  },
  {
    name: "let destructuring",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> data/orders
     (map (fn [o] (let [{:keys [amount quantity status]} o
                        [lo hi] (if (= status "paid") [amount quantity] [0 0])]
                    (* lo hi))))
     (reduce + 0))`,
      ),
    js: ({ orders }) =>
      orders
        .map((o) => {
          const { amount, quantity, status } = o;
          const [lo, hi] = status === "paid" ? [amount, quantity] : [0, 0];
          return lo * hi;
        })
        .reduce((sum, x) => sum + x, 0),
  },
  {
    name: "distinct sets",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(nonce, `(->> data/orders (map #(hash-set (:region %) (:status %))) distinct count)`),
    js: ({ orders }) => {
      const seen = new Set();
      for (const o of orders) seen.add([o.region, o.status].sort().join("\u0000"));
      return seen.size;
    },
  },
  {
    name: "format strings",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> data/orders
     (filter #(= (:status %) "pending"))
     (mapv #(format "%s: %.2f x%d (%s)" (:product %) (:amount %) (:quantity %) (str/upper-case (:region %)))))`,
      ),
    js: ({ orders }) =>
      orders
        .filter((o) => o.status === "pending")
        .map((o) => `${o.product}: ${o.amount.toFixed(2)} x${o.quantity} (${o.region.toUpperCase()})`),
  },
  {
    name: "str building",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> data/orders
     (filter #(> (:quantity %) 6))
     (map #(str "order " (:id %) " for " (:customer_id %) ": " (:product %) "/" (:region %)))
     (map count)
     (reduce + 0))`,
      ),
    js: ({ orders }) =>
      orders
        .filter((o) => o.quantity > 6)
        .map((o) => `order ${o.id} for ${o.customer_id}: ${o.product}/${o.region}`)
        .map((s) => s.length)
        .reduce((sum, n) => sum + n, 0),
  },
  {
    name: "sort-by three keys",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(nonce, `(->> data/orders (sort-by (juxt :region :status :customer_id)) (take 20) (mapv :id))`),
    js: ({ orders }) =>
      [...orders]
        .sort((a, b) =>
          a.region !== b.region
            ? a.region < b.region
              ? -1
              : 1
            : a.status !== b.status
              ? a.status < b.status
                ? -1
                : 1
              : a.customer_id - b.customer_id,
        )
        .slice(0, 20)
        .map((o) => o.id),
  },
  {
    name: "group-by update-vals",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(update-vals (group-by :product data/orders)
             (fn [rows] {:n (count rows) :max (apply max (map :amount rows))}))`,
      ),
    js: ({ orders }) => {
      const groups = new Map();
      for (const o of orders) {
        const g = groups.get(o.product);
        if (g === undefined) groups.set(o.product, [o]);
        else g.push(o);
      }
      const out = {};
      for (const [product, rows] of groups) {
        let max = Number.NEGATIVE_INFINITY;
        for (const r of rows) if (r.amount > max) max = r.amount;
        out[product] = { n: rows.length, max };
      }
      return out;
    },
  },
  {
    name: "keep set lookup",
    uses: ["orders", "customers"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(let [gold (set (keep #(when (= (:tier %) "gold") (:id %)) data/customers))]
  (count (filter #(contains? gold (:customer_id %)) data/orders)))`,
      ),
    js: ({ orders, customers }) => {
      const gold = new Set();
      for (const c of customers) if (c.tier === "gold") gold.add(c.id);
      let n = 0;
      for (const o of orders) if (gold.has(o.customer_id)) n++;
      return n;
    },
  },
  {
    name: "some lookup",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `[(some #(when (and (= (:region %) "west") (> (:amount %) 999)) (:id %)) data/orders)
 (some #(= (:product %) "p-missing") data/orders)]`,
      ),
    js: ({ orders }) => [
      orders.find((o) => o.region === "west" && o.amount > 999)?.id ?? null,
      orders.some((o) => o.product === "p-missing") || null,
    ],
  },
  {
    name: "nested for",
    uses: ["orders"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> (for [o data/orders
           :when (= (:status o) "paid")
           x [(:amount o) (* 10 (:quantity o))]
           :when (> x 50)]
       x)
     (reduce + 0))`,
      ),
    js: ({ orders }) => {
      let total = 0;
      for (const o of orders) {
        if (o.status !== "paid") continue;
        for (const x of [o.amount, 10 * o.quantity]) if (x > 50) total += x;
      }
      return total;
    },
  },
  {
    name: "re-seq key=value lines",
    uses: ["logs"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> data/logs
     (map (fn [line] (into {} (map (fn [[_ k v]] [k v]) (re-seq #"(\\w+)=(\\S+)" line)))))
     (filter #(= (get % "service") "api"))
     (map #(get % "latency"))
     frequencies
     count)`,
      ),
    js: ({ logs }) => {
      const counts = new Map();
      for (const line of logs) {
        const fields = {};
        for (const m of line.matchAll(/(\w+)=(\S+)/g)) fields[m[1]] = m[2];
        if (fields.service !== "api") continue;
        counts.set(fields.latency, (counts.get(fields.latency) ?? 0) + 1);
      }
      return counts.size;
    },
  },
  {
    name: "re-seq one long text",
    uses: ["text"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> (re-seq #"latency=(\\d+)ms" data/text) (map #(parse-long (second %))) (reduce + 0))`,
      ),
    js: ({ text }) => {
      let total = 0;
      for (const m of text.matchAll(/latency=(\d+)ms/g)) total += Number.parseInt(m[1], 10);
      return total;
    },
  },
  {
    name: "re-find split lines",
    uses: ["logs"],
    lisp: (_rows, nonce) =>
      fresh(
        nonce,
        `(->> data/logs
     (filter #(re-find #"ERROR|WARN" %))
     (map #(nth (str/split % #"\\s+") 2))
     frequencies)`,
      ),
    js: ({ logs }) => {
      const counts = {};
      for (const line of logs) {
        if (!/ERROR|WARN/.test(line)) continue;
        const service = line.split(/\s+/)[2];
        counts[service] = (counts[service] ?? 0) + 1;
      }
      return counts;
    },
  },
  {
    name: "loop/recur",
    uses: [],
    lisp: (rows, nonce) =>
      fresh(nonce, `(loop [i 0 acc 0] (if (< i ${rows}) (recur (inc i) (+ acc (* i i))) acc))`),
    js: (_data, rows) => {
      let acc = 0;
      for (let i = 0; i < rows; i++) acc += i * i;
      return acc;
    },
  },
  {
    name: "recursive fib",
    uses: [],
    // The defn compiles apart from the call, so the nonce goes into both.
    lisp: (rows, nonce) =>
      `(defn fib [n] (let [nonce ${nonce}] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))))\n${fresh(nonce, `(fib ${fibArgument(rows)})`)}`,
    js: (_data, rows) => {
      const fib = (n) => (n < 2 ? n : fib(n - 1) + fib(n - 2));
      return fib(rows <= 1000 ? 15 : rows <= 10000 ? 20 : 24);
    },
  },
];

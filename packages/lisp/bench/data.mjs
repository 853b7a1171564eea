// Deterministic data for the benchmarks: orders, customers and log lines shaped like the tool
// results an agent works on. A seeded generator, so every run and every machine sees the same rows.

function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const REGIONS = ["north", "south", "east", "west", "central"];
const STATUSES = ["paid", "pending", "refunded", "paid", "paid"];
const LEVELS = ["INFO", "INFO", "INFO", "WARN", "ERROR"];
const SERVICES = ["api", "auth", "billing", "search", "mailer", "web"];

export function makeData(rows) {
  const random = generator(rows);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const customerCount = Math.max(10, Math.floor(rows / 10));
  const customers = Array.from({ length: customerCount }, (_, i) => ({
    id: i + 1,
    name: `Customer ${i + 1}`,
    tier: pick(["gold", "silver", "bronze"]),
    region: pick(REGIONS),
  }));
  const orders = Array.from({ length: rows }, (_, i) => ({
    id: i + 1,
    customer_id: 1 + Math.floor(random() * customerCount),
    region: pick(REGIONS),
    product: `p${Math.floor(random() * 50)}`,
    status: pick(STATUSES),
    amount: Math.round(random() * 100000) / 100,
    quantity: 1 + Math.floor(random() * 9),
    date: `2024-${String(1 + Math.floor(random() * 12)).padStart(2, "0")}-${String(1 + Math.floor(random() * 28)).padStart(2, "0")}`,
  }));
  const logs = Array.from({ length: rows }, (_, i) => {
    const level = pick(LEVELS);
    return `2024-03-${String(1 + (i % 28)).padStart(2, "0")}T12:00:00Z ${level} service=${pick(SERVICES)} latency=${Math.floor(random() * 900)}ms request=${i}`;
  });
  // The same log lines as one text, as a tool that returns a file's contents hands it over.
  const text = logs.join("\n");
  return { orders, customers, logs, text };
}

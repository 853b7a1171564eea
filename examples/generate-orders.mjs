#!/usr/bin/env node
// Writes examples/orders.json: a year of orders from a small B2B shop (customers, orders with line
// items), generated from a fixed seed so the file is the same on every run. The committed file is
// the source of truth; run this only to change the data.
//   node examples/generate-orders.mjs
import { writeFileSync } from "node:fs";

// mulberry32: a tiny deterministic PRNG.
let seed = 20240601;
function random() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (items) => items[Math.floor(random() * items.length)];
const between = (low, high) => low + Math.floor(random() * (high - low + 1));
function weighted(entries) {
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random() * total;
  for (const [value, weight] of entries) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return entries[entries.length - 1][0];
}
const cents = (amount) => Math.round(amount * 100) / 100;

const customers = [
  ["Acme Corp", "enterprise", "US", "Americas", 14],
  ["Globex", "enterprise", "US", "Americas", 11],
  ["Initech", "business", "US", "Americas", 6],
  ["Umbrella Health", "enterprise", "GB", "EMEA", 10],
  ["Stark Industries", "enterprise", "US", "Americas", 9],
  ["Wayne Logistics", "business", "CA", "Americas", 7],
  ["Nordwind GmbH", "business", "DE", "EMEA", 8],
  ["Soylent Foods", "starter", "NL", "EMEA", 4],
  ["Tyrell Systems", "enterprise", "JP", "APAC", 8],
  ["Cyberdyne", "business", "KR", "APAC", 5],
  ["Hooli", "business", "US", "Americas", 6],
  ["Pied Piper", "starter", "US", "Americas", 3],
  ["Vandelay Imports", "starter", "US", "Americas", 4],
  ["Oceanic Air", "business", "AU", "APAC", 5],
  ["Massive Dynamic", "enterprise", "US", "Americas", 7],
  ["Aperture Labs", "business", "US", "Americas", 4],
  ["Black Mesa", "starter", "US", "Americas", 2],
  ["Monarch Solutions", "business", "FR", "EMEA", 4],
  ["Gringotts Ltd", "enterprise", "GB", "EMEA", 6],
  ["Bluth Company", "starter", "US", "Americas", 2],
  ["Los Pollos", "starter", "MX", "Americas", 3],
  ["Kaiju Robotics", "business", "JP", "APAC", 4],
  ["Fjord Analytics", "starter", "NO", "EMEA", 2],
  ["Sakura Retail", "business", "JP", "APAC", 3],
].map(([name, tier, country, region, weight], index) => ({
  id: `C-${String(index + 1).padStart(3, "0")}`,
  name,
  tier,
  country,
  region,
  weight,
}));

const products = [
  ["SKU-101", "Standing desk", "furniture", 489.0],
  ["SKU-102", "Ergonomic chair", "furniture", 329.5],
  ["SKU-103", "Monitor arm", "furniture", 89.99],
  ["SKU-201", "27-inch monitor", "electronics", 279.0],
  ["SKU-202", "USB-C dock", "electronics", 149.99],
  ["SKU-203", "Wireless keyboard", "electronics", 79.9],
  ["SKU-204", "Noise-cancelling headset", "electronics", 199.0],
  ["SKU-205", "Webcam", "electronics", 89.0],
  ["SKU-301", "Printer paper (box)", "supplies", 34.5],
  ["SKU-302", "Notebooks (10 pack)", "supplies", 18.75],
  ["SKU-303", "Whiteboard markers", "supplies", 12.4],
  ["SKU-304", "Desk organizer", "supplies", 24.99],
  ["SKU-401", "Team workshop (day)", "services", 1200.0],
  ["SKU-402", "Setup and installation", "services", 250.0],
  ["SKU-403", "Extended warranty", "services", 59.0],
  ["SKU-501", "Coffee beans (5 kg)", "pantry", 96.0],
].map(([sku, name, category, price]) => ({ sku, name, category, price }));

const statuses = [
  ["completed", 76],
  ["pending", 10],
  ["refunded", 8],
  ["cancelled", 6],
];
const channels = [
  ["web", 60],
  ["sales", 30],
  ["partner", 10],
];

const orders = [];
const start = Date.UTC(2024, 0, 1);
for (let n = 0; n < 200; n++) {
  const customer = weighted(customers.map((c) => [c, c.weight]));
  const lines = between(1, 4);
  const chosen = new Set();
  const items = [];
  for (let i = 0; i < lines; i++) {
    const product = pick(products);
    if (chosen.has(product.sku)) continue;
    chosen.add(product.sku);
    const quantity =
      product.category === "supplies" || product.category === "pantry" ? between(2, 20) : between(1, 6);
    items.push({
      sku: product.sku,
      product: product.name,
      category: product.category,
      quantity,
      unit_price: product.price,
    });
  }
  const subtotal = items.reduce((sum, item) => sum + item.quantity * item.unit_price, 0);
  const discountRate = customer.tier === "enterprise" ? 0.1 : customer.tier === "business" ? 0.05 : 0;
  const day = Math.floor((n / 200) * 365) + between(0, 1);
  orders.push({
    id: `ORD-${1001 + n}`,
    customer_id: customer.id,
    customer: customer.name,
    region: customer.region,
    channel: weighted(channels),
    status: weighted(statuses),
    placed_at: new Date(start + day * 86_400_000).toISOString().slice(0, 10),
    items,
    discount: cents(subtotal * discountRate),
    total: cents(subtotal * (1 - discountRate)),
  });
}

const data = {
  customers: customers.map(({ weight, ...customer }) => customer),
  orders,
};
writeFileSync(new URL("./orders.json", import.meta.url), `${JSON.stringify(data, null, 2)}\n`);
console.log(`wrote ${orders.length} orders for ${customers.length} customers to examples/orders.json`);

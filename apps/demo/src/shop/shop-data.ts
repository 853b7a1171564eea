/**
 * The benchmark's shop: 60 customers and 1,600 orders of 2025 with their line items, generated
 * from a fixed seed so every run sends the same rows and counts the same tokens.
 */
import { createRandom } from "../random.js";

export interface Customer {
  readonly id: string;
  readonly name: string;
  readonly tier: "enterprise" | "business" | "starter";
  readonly region: "Americas" | "EMEA" | "APAC";
  readonly country: string;
}

export interface OrderItem {
  readonly sku: string;
  readonly category: string;
  readonly quantity: number;
  readonly unit_price: number;
}

export interface Order {
  readonly id: string;
  readonly customer_id: string;
  readonly customer: string;
  readonly placed_at: string;
  readonly status: "completed" | "pending" | "refunded" | "cancelled";
  readonly channel: "web" | "sales" | "partner";
  readonly items: readonly OrderItem[];
  readonly total: number;
}

export interface Shop {
  readonly customers: readonly Customer[];
  readonly orders: readonly Order[];
}

const FIRST = [
  "Acme",
  "Globex",
  "Initech",
  "Umbrella",
  "Stark",
  "Wayne",
  "Nordwind",
  "Soylent",
  "Tyrell",
  "Cyberdyne",
  "Hooli",
  "Vandelay",
];
const SECOND = ["Corp", "Logistics", "Health", "Systems", "Foods", "Labs"];
const COUNTRIES: Readonly<Record<Customer["region"], readonly string[]>> = {
  Americas: ["US", "US", "CA", "MX", "BR"],
  EMEA: ["GB", "DE", "FR", "NL", "NO"],
  APAC: ["JP", "KR", "AU", "SG"],
};
const CATALOG: readonly (readonly [string, string, number])[] = [
  ["LAP-14", "electronics", 1249.0],
  ["MON-27", "electronics", 329.0],
  ["DOC-USB", "electronics", 189.5],
  ["CHR-ERG", "furniture", 449.0],
  ["DSK-STD", "furniture", 689.0],
  ["PPR-A4", "supplies", 6.4],
  ["TNR-BK", "supplies", 74.9],
  ["PEN-BX", "supplies", 12.3],
  ["LIC-OFF", "software", 99.0],
  ["LIC-SEC", "software", 240.0],
];

let cached: Shop | undefined;

export function benchShop(): Shop {
  cached ??= generateShop(2025, 60, 1_600);
  return cached;
}

export function generateShop(seed: number, customerCount: number, orderCount: number): Shop {
  const random = createRandom(seed);
  const customers: Customer[] = [];
  for (let index = 0; index < customerCount; index++) {
    const region = random.weighted<Customer["region"]>([
      ["Americas", 5],
      ["EMEA", 3],
      ["APAC", 2],
    ]);
    customers.push({
      id: `C-${String(index + 1).padStart(3, "0")}`,
      name: `${FIRST[index % FIRST.length]} ${SECOND[Math.floor(index / FIRST.length) % SECOND.length]}`,
      tier: random.weighted<Customer["tier"]>([
        ["enterprise", 2],
        ["business", 4],
        ["starter", 4],
      ]),
      region,
      country: random.pick(COUNTRIES[region]),
    });
  }
  // Some customers order far more than others, as in any shop.
  const weights = customers.map(
    (customer) => [customer, 1 + random.next() * (customer.tier === "enterprise" ? 9 : 3)] as const,
  );
  const orders: Order[] = [];
  const start = Date.parse("2025-01-01T00:00:00Z");
  const year = 365 * 86_400_000;
  for (let index = 0; index < orderCount; index++) {
    const customer = random.weighted(weights);
    const items: OrderItem[] = [];
    const lines = random.between(1, 4);
    for (let line = 0; line < lines; line++) {
      const [sku, category, price] = random.pick(CATALOG);
      items.push({
        sku,
        category,
        quantity: random.between(1, category === "supplies" ? 40 : 6),
        unit_price: price,
      });
    }
    const total =
      Math.round(items.reduce((sum, item) => sum + item.quantity * item.unit_price, 0) * 100) / 100;
    orders.push({
      id: `O-${String(index + 1).padStart(5, "0")}`,
      customer_id: customer.id,
      customer: customer.name,
      placed_at: new Date(start + Math.floor(random.next() * year)).toISOString().slice(0, 10),
      status: random.weighted<Order["status"]>([
        ["completed", 80],
        ["pending", 10],
        ["refunded", 6],
        ["cancelled", 4],
      ]),
      channel: random.weighted<Order["channel"]>([
        ["web", 6],
        ["sales", 3],
        ["partner", 1],
      ]),
      items,
      total,
    });
  }
  orders.sort((a, b) => (a.placed_at < b.placed_at ? -1 : a.placed_at > b.placed_at ? 1 : 0));
  return { customers, orders };
}

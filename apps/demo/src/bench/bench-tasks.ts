/**
 * The tasks of the token benchmark, each scripted twice over the same real tools: once for pure
 * text mode (the model reads every native result in full and works the answer out from it) and
 * once for combined mode (it reads a metadata preview and computes with a `lisp_eval` program over
 * the cached rows). Every answer is computed from what came back in that run; the benchmark checks
 * that both modes answer the same.
 */
import type { AgentToolDefinition, ModelRequest } from "@ptc/agent";
import type { ScriptedStep } from "@ptc/agent/testing";
import { cachedCall, lispResult, toolJson } from "../conversation/tool-results.js";
import { demoLogs, type LogLine } from "../logs/log-data.js";
import { createLogTools } from "../logs/log-tools.js";
import { benchShop, type Customer, type Order } from "../shop/shop-data.js";
import { createShopTools } from "../shop/shop-tools.js";
import { readTriageFigures, type TriageFigures, triageProgram } from "../triage/scripted-triage.js";
import { DEMO_QUESTION } from "../triage/triage-agent.js";

export interface BenchTask {
  readonly name: string;
  readonly question: string;
  /** Put before the generated system prompt (the same in both modes). */
  readonly context: string;
  tools(): Record<string, AgentToolDefinition>;
  text(): ScriptedStep[];
  combined(): ScriptedStep[];
}

const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, args });
const calls = (...toolCalls: ReturnType<typeof call>[]): ScriptedStep => ({ content: "", toolCalls });
const program = (id: string, source: string) => ({
  content: "",
  toolCalls: [call(id, "lisp_eval", { program: source })],
});

const logsContext = () =>
  `You are the on-call assistant of an online shop's engineering team. It is now ${new Date(demoLogs().now).toISOString()}; log timestamps are UTC.`;
const shopContext = "You are the analyst of an office-supplies shop. Amounts are in US dollars.";

const round2 = (value: number) => Math.round(value * 100) / 100;
const money = (value: number) =>
  `$${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function sumTotals(orders: readonly Order[]): number {
  return orders.reduce((sum, order) => sum + order.total, 0);
}

/** Groups in first-seen order, as PTC-Lisp's `group-by` does, so ties sort the same in both modes. */
function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const name = key(item);
    const group = groups.get(name);
    if (group === undefined) groups.set(name, [item]);
    else group.push(item);
  }
  return groups;
}

// ── log triage: 1,842 rows ───────────────────────────────────────────────────────────────────

function triageAnswer(figures: TriageFigures): string {
  const top = figures.topServices.map((entry) => `${entry.service} (${entry.errors})`).join(", ");
  return `There were ${figures.total} errors with code 42 in the last hour. The services with the most: ${top}.`;
}

const logTriage: BenchTask = {
  name: "log triage",
  question: DEMO_QUESTION,
  get context() {
    return logsContext();
  },
  tools: () => createLogTools(demoLogs()),
  text: () => [
    calls(call("call_1", "search_logs", { query: "error code 42", since: "1h" })),
    (request: ModelRequest) => {
      const rows = toolJson(request, "search_logs") as LogLine[];
      const counts = groupBy(rows, (row) => row.service);
      const topServices = [...counts]
        .map(([service, hits]) => ({ service, errors: hits.length }))
        .sort((a, b) => b.errors - a.errors)
        .slice(0, 3);
      return triageAnswer({ total: rows.length, topServices });
    },
  ],
  combined: () => [
    calls(call("call_1", "search_logs", { query: "error code 42", since: "1h" })),
    (request: ModelRequest) => program("call_2", triageProgram(cachedCall(request, "search_logs"))),
    (request: ModelRequest) => triageAnswer(readTriageFigures(lispResult(request))),
  ],
};

// ── top customers: ~1,300 order rows ─────────────────────────────────────────────────────────

function topCustomersAnswer(ranking: readonly (readonly [string, number])[]): string {
  const lines = ranking.map(([customer, revenue], index) => `${index + 1}. ${customer} ${money(revenue)}`);
  return `Top customers by revenue from completed orders: ${lines.join("; ")}.`;
}

const topCustomers: BenchTask = {
  name: "top customers",
  question: "Who were our top 5 customers by revenue from completed orders in 2025?",
  context: shopContext,
  tools: () => createShopTools(benchShop()),
  text: () => [
    calls(call("call_1", "list_orders", { status: "completed" })),
    (request: ModelRequest) => {
      const orders = toolJson(request, "list_orders") as Order[];
      const ranking = [...groupBy(orders, (order) => order.customer)]
        .map(([customer, rows]) => [customer, round2(sumTotals(rows))] as const)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5);
      return topCustomersAnswer(ranking);
    },
  ],
  combined: () => [
    calls(call("call_1", "list_orders", { status: "completed" })),
    (request: ModelRequest) =>
      program(
        "call_2",
        [
          `(let [orders (${cachedCall(request, "list_orders").slice(1, -1)})]`,
          "  (->> orders",
          "       (group-by :customer)",
          "       (map (fn [[customer rows]] [customer (/ (round (* 100 (sum-by :total rows))) 100.0)]))",
          "       (sort-by second >)",
          "       (take 5)",
          "       vec))",
        ].join("\n"),
      ),
    (request: ModelRequest) => {
      const ranking = (lispResult(request) as [string, number][]).map(
        ([customer, revenue]) => [customer, revenue] as const,
      );
      return topCustomersAnswer(ranking);
    },
  ],
};

// ── a join of two tools: orders × customers ──────────────────────────────────────────────────

interface TierRevenue {
  readonly tier: string;
  readonly orders: number;
  readonly revenue: number;
}

function tierAnswer(tiers: readonly TierRevenue[]): string {
  const parts = tiers.map((tier) => `${tier.tier} ${money(tier.revenue)} from ${tier.orders} orders`);
  return `Revenue from completed orders by customer tier: ${parts.join(", ")}.`;
}

const revenueByTier: BenchTask = {
  name: "revenue by tier (join)",
  question: "How much revenue did completed orders bring in per customer tier?",
  context: shopContext,
  tools: () => createShopTools(benchShop()),
  text: () => [
    calls(call("call_1", "list_orders", { status: "completed" }), call("call_2", "list_customers", {})),
    (request: ModelRequest) => {
      const orders = toolJson(request, "list_orders") as Order[];
      const customers = toolJson(request, "list_customers") as Customer[];
      const tierOf = new Map(customers.map((customer) => [customer.id, customer.tier]));
      const tiers = [...groupBy(orders, (order) => tierOf.get(order.customer_id) ?? "unknown")]
        .map(([tier, rows]) => ({ tier, orders: rows.length, revenue: round2(sumTotals(rows)) }))
        .sort((a, b) => b.revenue - a.revenue);
      return tierAnswer(tiers);
    },
  ],
  combined: () => [
    calls(call("call_1", "list_orders", { status: "completed" }), call("call_2", "list_customers", {})),
    (request: ModelRequest) =>
      program(
        "call_3",
        [
          `(let [orders (${cachedCall(request, "list_orders").slice(1, -1)})`,
          `      customers (${cachedCall(request, "list_customers").slice(1, -1)})`,
          "      tier-of (into {} (map (juxt :id :tier) customers))]",
          "  (->> orders",
          "       (group-by #(tier-of (:customer_id %)))",
          "       (map (fn [[tier rows]] {:tier tier :orders (count rows) :revenue (/ (round (* 100 (sum-by :total rows))) 100.0)}))",
          "       (sort-by :revenue >)",
          "       vec))",
        ].join("\n"),
      ),
    (request: ModelRequest) => {
      const tiers = (lispResult(request) as { tier: string; orders: number; revenue: number }[]).map(
        (tier) => ({
          tier: tier.tier,
          orders: tier.orders,
          revenue: tier.revenue,
        }),
      );
      return tierAnswer(tiers);
    },
  ],
};

// ── a small result: 10 rows ──────────────────────────────────────────────────────────────────

function onCallAnswer(request: ModelRequest): string {
  const services = toolJson(request, "list_services") as { name: string; tier: number; oncall: string }[];
  const tierOne = services.filter((service) => service.tier === 1);
  return `On call for the tier-1 services: ${tierOne.map((service) => `${service.name}: ${service.oncall}`).join(", ")}.`;
}

const onCall: BenchTask = {
  name: "on call (small result)",
  question: "Who is on call for our tier-1 services?",
  get context() {
    return logsContext();
  },
  tools: () => createLogTools(demoLogs()),
  // The result is small and not cached, so both modes read it in full and answer straight away.
  text: () => [calls(call("call_1", "list_services", {})), onCallAnswer],
  combined: () => [calls(call("call_1", "list_services", {})), onCallAnswer],
};

export const BENCH_TASKS: readonly BenchTask[] = [logTriage, topCustomers, revenueByTier, onCall];

/**
 * The benchmark's shop tools. Both are `expose: "both"` and `cache: true` with a metadata preview:
 * in combined mode a native call shows only the shape, and programs read the rows from the cache.
 * In pure text mode the same definitions are plain native tools whose full results the model reads.
 */
import type { AgentToolDefinition } from "@ptc/agent";
import type { Shop } from "./shop-data.js";

const ORDER_SHAPE =
  "{id :string, customer_id :string, customer :string, placed_at :string, status :string, channel :string, items [{sku :string, category :string, quantity :int, unit_price :float}], total :float}";

export function createShopTools(shop: Shop): Record<string, AgentToolDefinition> {
  return {
    list_orders: {
      signature: `(status :string?) -> [${ORDER_SHAPE}]`,
      description:
        "Orders of 2025 with their line items, oldest first; status filters (completed, pending, refunded, cancelled).",
      expose: "both",
      cache: true,
      nativeResult: { preview: "metadata" },
      execute: ({ status }: { status?: unknown }) =>
        typeof status === "string" && status !== ""
          ? shop.orders.filter((order) => order.status === status)
          : [...shop.orders],
    },
    list_customers: {
      signature: "() -> [{id :string, name :string, tier :string, region :string, country :string}]",
      description: "Every customer with their tier (enterprise, business, starter), region and country.",
      expose: "both",
      cache: true,
      nativeResult: { preview: "metadata" },
      execute: () => [...shop.customers],
    },
  };
}

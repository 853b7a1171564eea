// Mock tools for trying programs that call tools, over the orders in orders.json:
//
//   ptc-lisp -e '(count (tool/list-orders {:status "refunded"}))' --tools examples/tools.mjs
//
// Every export that is a function of one argument object (or an object with an `execute`
// function, such as a @ptc/tool tool) becomes a tool named after the export.
import { readFileSync } from "node:fs";

const shop = JSON.parse(readFileSync(new URL("./orders.json", import.meta.url), "utf8"));

/** Orders, optionally only those with the given status. */
export function list_orders({ status } = {}) {
  return status === undefined ? shop.orders : shop.orders.filter((order) => order.status === status);
}

/** One customer by id, or null. */
export async function get_customer({ id }) {
  return shop.customers.find((customer) => customer.id === id) ?? null;
}

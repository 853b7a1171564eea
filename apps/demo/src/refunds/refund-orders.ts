/**
 * The refund scenario's shop: 60 orders of one week, a few delivered more than a week late. The
 * list is generated from a fixed seed, so every run sees the same orders and the same candidates.
 */
import { createRandom } from "../random.js";

export interface Order {
  readonly id: string;
  readonly customer: string;
  readonly status: "delivered" | "in_transit" | "cancelled";
  readonly total: number;
  readonly days_late: number;
}

const CUSTOMERS = ["Ada Byrne", "Bo Lindqvist", "Chidi Okafor", "Dana Reyes", "Emil Sauer", "Fatima Noor"];

/** Orders delivered more than this many days late get a refund. */
export const LATE_DAYS = 7;

export function refundOrders(): Order[] {
  const random = createRandom(2024);
  return Array.from({ length: 60 }, (_, index) => {
    const status = random.weighted<Order["status"]>([
      ["delivered", 80],
      ["in_transit", 13],
      ["cancelled", 7],
    ]);
    // Most orders arrive on time; a few are very late.
    const late = random.next() < 0.08 ? random.between(8, 17) : random.between(0, 3);
    return {
      id: `A-${1001 + index}`,
      customer: random.pick(CUSTOMERS),
      status,
      total: random.between(1500, 30000) / 100,
      days_late: status === "delivered" ? late : 0,
    };
  });
}

/** One program of the no-eval corpus (see no-eval-corpus.mjs). */
export interface CorpusEntry {
  readonly name: string;
  readonly program: string;
  readonly context?: Readonly<Record<string, unknown>>;
  /** Tool name to the JSON result it returns. */
  readonly tools?: Readonly<Record<string, unknown>>;
  readonly limits?: Readonly<Record<string, number>>;
}

export interface OrderRow {
  readonly id: number;
  readonly customer: string;
  readonly amount: number;
  readonly status: "paid" | "open" | "refunded";
  readonly quantity: number;
}

export function orderRows(count: number): OrderRow[];
export const corpus: readonly CorpusEntry[];

/**
 * The map accumulator of a running `reduce` whose function only derives new maps from it with
 * assoc, update, merge-with and the like, or hands it back (compiler/accumulator-use.ts). Nobody
 * else can see that map, so deriving from it may change it in place (versioned-table.ts) instead
 * of leaving a new version and an undo record per row. The same idea as runtime/owned-vector.ts;
 * whoever sets it restores the previous one before anything else can run.
 */
export const ownedTable: { current: object | undefined } = { current: undefined };

/**
 * `(reduce (fn [acc x] (conj acc ...)) [] rows)` copies the whole vector at every step when
 * vectors are flat arrays: quadratic, and over 100,000 rows it runs out of time. But when the
 * function does nothing with its accumulator except `conj` onto it or return it
 * (compiler/accumulator-use.ts proves that of the fn form), nobody but the running `reduce` and
 * that `conj` can ever see the array. So `reduce` copies the initial vector once, names the copy
 * here while it calls the function, and `conj` appends to the named array in place: linear.
 *
 * Whoever sets it restores the previous one before anything else can run (no await in between),
 * so a nested reduce, or a conj on any other array, takes the ordinary copying path.
 */
export const ownedVector: { current: unknown[] | undefined } = { current: undefined };

/** A debounced function: calls run once, `ms` after the last call; cancel() drops a pending call. */
export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  cancel(): void;
}

/**
 * Delays `fn` until calls have stopped for `ms` milliseconds, then runs it once with the last
 * arguments. Used for the header's window resize handler (§9 "Menu resize handler delay": 500 ms);
 * cancel() belongs in the effect's cleanup so that nothing runs after the header unmounts.
 */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const debounced = (...args: A) => {
    cancel();
    timer = setTimeout(() => {
      timer = undefined;
      fn(...args);
    }, ms);
  };
  return Object.assign(debounced, { cancel });
}

/**
 * Work done once at a time per key in this process: whoever asks for a key while its work is
 * under way gets the same promise; once it settles, the next ask starts the work again.
 */
export function oncePerKey<T>(): (key: string, work: () => Promise<T>) => Promise<T> {
  const inFlight = new Map<string, Promise<T>>();
  return (key, work) => {
    const pending = inFlight.get(key);
    if (pending) return pending;
    const job = work().finally(() => inFlight.delete(key));
    inFlight.set(key, job);
    return job;
  };
}

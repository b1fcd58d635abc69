// Preloaded into the server by bench/memory.ts (with --expose-gc): SIGUSR2 runs a full garbage
// collection, so the heap read next is live data, not garbage waiting for a collection.
process.on("SIGUSR2", () => globalThis.gc?.());

// Calls made in the same turn of the event loop, grouped. The queue consumer wrapper (shared/events/consumer.ts)
// starts every record of a batch before any of them awaits I/O, so the webhook consumers use this to make one
// DynamoDB or SQS request per group of records instead of one per record. Create one per invocation: Lambda hands
// a container one batch at a time, and a batcher shared across invocations would group what Lambda never would.

interface Waiter<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/** Runs one group and hands each waiter its own result, or the group's error. */
function runGroup<T, R>(run: (key: string, items: T[]) => Promise<R[]>, key: string, waiters: Waiter<T, R>[]): void {
  run(
    key,
    waiters.map((w) => w.item),
  ).then(
    (results) => {
      for (const [i, w] of waiters.entries()) w.resolve(results[i] as R);
    },
    (error: unknown) => {
      for (const w of waiters) w.reject(error);
    },
  );
}

/**
 * `run(key, items)` once per key for all calls with that key made before the event loop next checks for I/O (a
 * `setImmediate` turn), returning one result per item in order. A rejection fails every caller of the group.
 */
export function turnBatch<T, R>(run: (key: string, items: T[]) => Promise<R[]>): (key: string, item: T) => Promise<R> {
  let pending: Map<string, Waiter<T, R>[]> | undefined;
  const flush = (groups: Map<string, Waiter<T, R>[]>) => {
    pending = undefined;
    for (const [key, waiters] of groups) runGroup(run, key, waiters);
  };
  return (key, item) =>
    new Promise<R>((resolve, reject) => {
      if (!pending) {
        const groups = new Map<string, Waiter<T, R>[]>();
        pending = groups;
        setImmediate(() => flush(groups));
      }
      const group = pending.get(key);
      if (group) group.push({ item, resolve, reject });
      else pending.set(key, [{ item, resolve, reject }]);
    });
}

/**
 * Like turnBatch, but a key's group stays open after its first call until `full(key, size)` says every call it
 * expects has arrived, or `lingerMs` has passed: for results that arrive spread over time (replies to parallel
 * POSTs), where waiting for the slowest would hold the others back.
 */
export function windowBatch<T, R>(
  run: (key: string, items: T[]) => Promise<R[]>,
  { lingerMs, full }: { lingerMs: number; full: (key: string, size: number) => boolean },
): (key: string, item: T) => Promise<R> {
  const open = new Map<string, { waiters: Waiter<T, R>[]; timer: NodeJS.Timeout }>();
  const flush = (key: string) => {
    const window = open.get(key);
    if (!window) return;
    open.delete(key);
    clearTimeout(window.timer);
    runGroup(run, key, window.waiters);
  };
  return (key, item) =>
    new Promise<R>((resolve, reject) => {
      let window = open.get(key);
      if (!window) {
        window = { waiters: [], timer: setTimeout(() => flush(key), lingerMs) };
        open.set(key, window);
      }
      window.waiters.push({ item, resolve, reject });
      if (full(key, window.waiters.length)) flush(key);
    });
}

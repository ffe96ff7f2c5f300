// Waiting on the asynchronous side of a stack (queues, processors) without fixed sleeps: the integration tests and
// the smoke test read until a condition holds, within a stated bound.

/** Reads until `done` holds or `ms` pass, and returns the last value read (the caller's assertion says what failed). */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000, everyMs = 150) {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, everyMs));
    value = await read();
  }
  return value;
}

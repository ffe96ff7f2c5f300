// Waiting on the asynchronous half of the local stack (queues, processors) without fixed sleeps.

/** Reads until `done` holds or `ms` pass, and returns the last value read (the caller's assertion says what failed). */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 150));
    value = await read();
  }
  return value;
}

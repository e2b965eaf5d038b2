// The tests' one way to wait on something they can only read again and again (a window over the
// test driver, another document): `waitUntil`'s loop, with the thing read handed back and named
// in the failure as it last was.

/** Reads `read` until `done` holds for what it gives, and resolves with it; after `ms`, fails saying `what` and the last reading. */
export async function readUntil<T>(read: () => T | Promise<T>, done: (value: T) => boolean, what: (last: T) => string, ms: number, every = 30): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`${what(value)}, within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}

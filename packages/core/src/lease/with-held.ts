/** Runs `fn` with `held` and disposes of it afterwards (also when `fn` throws): every `withLock`. */
export async function withHeld<H extends AsyncDisposable, T>(
  held: H,
  fn: (held: H) => Promise<T> | T,
): Promise<T> {
  try {
    return await fn(held);
  } finally {
    await held[Symbol.asyncDispose]();
  }
}

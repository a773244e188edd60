/**
 * `Symbol.asyncDispose` for projects whose TypeScript `lib` lacks `esnext.disposable` (a Worker
 * made by create-cloudflare has `lib: ["es2024"]`), declared as `@types/node` does: edgelock's
 * declarations then typecheck there, `skipLibCheck` off included. It merges with TypeScript's
 * own declaration where the lib has one. The runtime value comes from the platform (Node 20,
 * workerd), not from edgelock.
 */
declare global {
  interface SymbolConstructor {
    readonly asyncDispose: unique symbol;
  }
}

/**
 * A hold that `await using` releases on scope exit: what TypeScript's `AsyncDisposable` asks
 * for, named so that edgelock's declarations do not need the `esnext.disposable` lib.
 *
 * `await using` in your own code does need it. TypeScript 5.9 checks an `await using`
 * declaration against the global types `AsyncDisposable` and `Disposable` (TS2318 "Cannot find
 * global type 'AsyncDisposable'" without them), whatever the `target`: add
 * `"esnext.disposable"` (or `"esnext"`) to `lib`, e.g. `"lib": ["es2024", "esnext.disposable"]`,
 * or have `@types/node` in `types`, which declares both. With a `target` below `esnext` the
 * statement is lowered to helpers that need `Symbol.asyncDispose` at run time (Node 20 and
 * workerd have it). Without `await using`: `try { … } finally { await held.release() }`, or
 * `withLock`.
 */
export interface AsyncDisposableHold {
  /** Releases the hold and never throws (a failure is reported through `onEvent` and `signal`). */
  [Symbol.asyncDispose](): Promise<void>;
}

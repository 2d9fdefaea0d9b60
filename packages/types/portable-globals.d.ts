/**
 * The web-platform globals `src/` uses, and nothing else: they exist in every
 * browser, web worker, Deno, Bun and Node ≥ 20. `tsconfig.portable.json`
 * compiles `src/` with these and ES2023 only, no `@types/node` and no DOM
 * lib, so `Buffer`, `process`, `require`, `document` or `window` there fail
 * the build. Add a global here only if every one of those runtimes has it.
 */

/** Only what `src/` reads; the real interface has more. */
interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
}

/** Timers and the monotonic clock (`Deadlines`); `unref` exists in Node, Deno and Bun only. */
interface PortableTimer {
  unref?(): void;
}
declare function setTimeout(callback: () => void, ms: number): PortableTimer;
declare function clearTimeout(timer: PortableTimer | undefined): void;
declare const performance: { now(): number };

/** UTF-8 encoding (`@ocp/types/cgp` digests and byte counts). */
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}

/**
 * The web-platform globals the portable entry points use, and nothing else:
 * they exist in every browser, web worker, Deno, Bun and Node ≥ 20.
 * `tsconfig.portable.json` compiles `src/` (minus `src/node/` and the
 * `*.node.ts` modules) with these and ES2023 only, no `@types/node` and no
 * DOM lib, so `Buffer`, `process`, `require`, `document` or `window` there
 * fail the build. Add a global here only if every one of those runtimes has it.
 */

declare class TextEncoder {
  readonly encoding: string;
  encode(input?: string): Uint8Array<ArrayBuffer>;
}

declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  readonly encoding: string;
  readonly fatal: boolean;
  decode(input?: ArrayBufferView | ArrayBuffer, options?: { stream?: boolean }): string;
}

/** Base64 of a binary string (each char code 0–255). */
declare function btoa(data: string): string;
/** The binary string of base64 `data`. */
declare function atob(data: string): string;

/** Only `getRandomValues`: `randomUUID` and `subtle` exist in secure browser contexts only. */
declare var crypto: {
  getRandomValues<T extends ArrayBufferView>(array: T): T;
};

/** A deep copy of a structured-cloneable value (throws on functions and symbols). */
declare function structuredClone<T>(value: T): T;

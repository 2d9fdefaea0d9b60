/**
 * The root entry as Node loads it (the `node` export condition): the same
 * API as `./index.js`, with `defaultEd25519` set once to the native
 * Ed25519 (libsodium where `sodium-native` loads, else `node:crypto`) when
 * this Node has it. Browsers and bundlers get `./index.js` and noble.
 */
import { hasNativeEd25519, nativeEd25519 } from "./node/ed25519.js";
import { preferEd25519 } from "./signing.js";

if (hasNativeEd25519()) preferEd25519(nativeEd25519);

export * from "./index.js";

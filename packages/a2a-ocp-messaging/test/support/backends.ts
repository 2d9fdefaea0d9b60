import type { Ed25519Backend } from "../../src/index.js";
import { nobleEd25519 } from "../../src/internal.js";
import { nativeEd25519, opensslEd25519, sodiumEd25519 } from "../../src/node/index.js";

/** libsodium's backend, where `sodium-native` loads (it does on linux x64, where CI runs). */
export const SODIUM: Ed25519Backend | undefined = sodiumEd25519();

/** Every Ed25519 backend: portable, OpenSSL, libsodium (where it loads), and the node default over them. */
export const ALL_BACKENDS: readonly Ed25519Backend[] = [
  nobleEd25519,
  opensslEd25519,
  nativeEd25519,
  ...(SODIUM === undefined ? [] : [SODIUM]),
];

import { type InboundOptions, InboundPipeline } from "../inbound.js";
import { createDecompressor } from "./compression.js";
import { nativeEd25519 } from "./ed25519.js";

export { FileAuditLog, type FileAuditLogOptions } from "./audit-file.js";
export {
  type CompressOptions,
  compressMessage,
  createDecompressor,
  decompressMessage,
} from "./compression.js";
export {
  hasNativeEd25519,
  nativeEd25519,
  nativeEd25519Library,
  nativeKeyCacheSize,
  opensslEd25519,
} from "./ed25519.js";
export {
  createDecryptor,
  type DecryptionKey,
  decryptMessage,
  type EncryptionRecipient,
  encryptMessage,
  generateX25519KeyPair,
  recipientFromProfile,
  X25519_KEY_BYTES,
  x25519PublicKey,
} from "./encryption.js";
export {
  generateIdentityWithEncryption,
  IDENTITY_FILE_FORMAT,
  type IdentityFile,
  IdentityFileSchema,
  identityFromFile,
  identityToFile,
  loadIdentity,
  saveIdentity,
} from "./keystore.js";
export { sodiumEd25519 } from "./sodium.js";

/**
 * The inbound pipeline with Node defaults: native Ed25519 verification and
 * gzip/brotli decompression (capped). Any option given wins.
 */
export function createNodeInboundPipeline(options: InboundOptions): InboundPipeline {
  return new InboundPipeline({
    ed25519: nativeEd25519,
    decompress: createDecompressor(),
    ...options,
  });
}

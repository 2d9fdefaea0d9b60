import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { decodeMessage } from "../decode.js";
import type { CompressedMessage, Compression } from "../envelope.js";
import { fail, type Result } from "../errors.js";
import type { Decompressor } from "../inbound.js";
import { parseJson } from "../json.js";
import { COMPRESSION_THRESHOLD_BYTES, MAX_DECOMPRESSED_BYTES } from "../limits.js";
import type { PlainMessage } from "../messages.js";

/**
 * §12.2 compression. The JSON of `payload` is compressed and carried, base64,
 * in `compressedPayload`, which replaces `payload`; `compression` names the
 * algorithm. Compress before signing: the signature covers the compressed
 * form, so a receiver authenticates a message before it spends anything on
 * inflating it. Inflation is capped (`maxOutputLength`), so a few kilobytes
 * that inflate to gigabytes cost at most {@link MAX_DECOMPRESSED_BYTES}.
 */

export interface CompressOptions {
  /** Default `gzip`. */
  algorithm?: Compression;
  /** Payloads smaller than this stay uncompressed. Default {@link COMPRESSION_THRESHOLD_BYTES}. */
  thresholdBytes?: number;
}

/** Compresses the payload of an (unsigned) plain message when it is at least the threshold. */
export function compressMessage(
  message: PlainMessage,
  options: CompressOptions = {},
): PlainMessage | CompressedMessage {
  const json = Buffer.from(JSON.stringify(message.payload), "utf8");
  if (json.length < (options.thresholdBytes ?? COMPRESSION_THRESHOLD_BYTES)) return message;
  const algorithm = options.algorithm ?? "gzip";
  const compressed = algorithm === "gzip" ? gzipSync(json) : brotliCompressSync(json);
  const { payload: _payload, signature: _signature, ...envelope } = message;
  return {
    ...envelope,
    compression: algorithm,
    compressedPayload: compressed.toString("base64"),
  } as CompressedMessage;
}

/** Inflates a compressed message back to its plain form, validating the payload for its type. */
export function decompressMessage(
  message: CompressedMessage,
  maxBytes: number = MAX_DECOMPRESSED_BYTES,
): Result<PlainMessage, "decompression_failed" | "decompressed_too_large" | "invalid_message"> {
  const input = Buffer.from(message.compressedPayload, "base64");
  let output: Buffer;
  try {
    output =
      message.compression === "gzip"
        ? gunzipSync(input, { maxOutputLength: maxBytes })
        : brotliDecompressSync(input, { maxOutputLength: maxBytes });
  } catch (cause) {
    if ((cause as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE") {
      return fail("decompressed_too_large", `payload inflates past ${maxBytes} bytes`, {
        details: { maxBytes },
      });
    }
    return fail("decompression_failed", `compressedPayload is not valid ${message.compression}`, {
      cause,
    });
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(output);
  } catch (cause) {
    return fail("decompression_failed", "the decompressed payload is not UTF-8", { cause });
  }
  const payload = parseJson(text);
  if (!payload.ok)
    return fail("decompression_failed", payload.error.message, { cause: payload.error });
  const { compression: _c, compressedPayload: _p, signature: _s, ...envelope } = message;
  const decoded = decodeMessage({ ...envelope, payload: payload.value });
  if (!decoded.ok) return fail("invalid_message", decoded.error.message, { cause: decoded.error });
  return { ok: true, value: decoded.value as PlainMessage };
}

/** A `Decompressor` for the inbound pipeline. */
export function createDecompressor(maxBytes: number = MAX_DECOMPRESSED_BYTES): Decompressor {
  return (message) => decompressMessage(message, maxBytes);
}

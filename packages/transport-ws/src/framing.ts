/**
 * Framing of §6.3, pure (no I/O). A text frame carries exactly one JSON
 * message, as it arrived. A binary frame carries one or more records, each
 * `[4-byte big-endian length][JSON bytes]`, so a batch travels in one frame.
 *
 * Decoding is bounded: a record's declared length is checked against the
 * payload limit and the bytes left before anything is sliced, and the record
 * count against `maxBatchRecords`. Records are views into the frame (no copy).
 */
import { isUtf8 } from "node:buffer";
import { type WsError, wsError } from "./errors.js";

/** Bytes of a record's length prefix. */
export const RECORD_HEADER_BYTES = 4;

export interface FramingLimits {
  /** Largest frame, header bytes included. */
  maxPayloadBytes: number;
  /** Most records per frame. */
  maxBatchRecords: number;
}

/** What decoding a binary frame gives: the records, or why the frame is invalid. */
export type DecodeRecordsResult = { ok: true; records: Buffer[] } | { ok: false; error: WsError };

/** The UTF-8 bytes of a message given as text or bytes (bytes are used as they are). */
export function toBytes(message: string | Buffer): Buffer {
  return typeof message === "string" ? Buffer.from(message, "utf8") : message;
}

/** Byte length of a message given as text or bytes, without encoding it. */
export function byteLengthOf(message: string | Buffer): number {
  return typeof message === "string" ? Buffer.byteLength(message, "utf8") : message.length;
}

/**
 * Encodes `messages` as binary frames of length-prefixed records, as few
 * frames as the limits allow (each frame at most `maxPayloadBytes` long and
 * `maxBatchRecords` records). Throws `payload_too_large` if one record alone
 * cannot fit in a frame, `invalid_record` for an empty message.
 */
export function encodeRecords(
  messages: readonly (string | Buffer)[],
  limits: FramingLimits,
): Buffer[] {
  const frames: Buffer[] = [];
  let parts: Buffer[] = [];
  let size = 0;
  const flush = () => {
    if (parts.length > 0) frames.push(Buffer.concat(parts, size));
    parts = [];
    size = 0;
  };
  for (const message of messages) {
    const body = toBytes(message);
    if (body.length === 0) throw wsError("invalid_record", "a record cannot be empty");
    const recordSize = RECORD_HEADER_BYTES + body.length;
    if (recordSize > limits.maxPayloadBytes) {
      throw wsError(
        "payload_too_large",
        `a record of ${body.length} bytes does not fit in a frame of at most ${limits.maxPayloadBytes} bytes`,
        { details: { bytes: recordSize, limit: limits.maxPayloadBytes } },
      );
    }
    if (size + recordSize > limits.maxPayloadBytes || parts.length / 2 >= limits.maxBatchRecords) {
      flush();
    }
    const header = Buffer.allocUnsafe(RECORD_HEADER_BYTES);
    header.writeUInt32BE(body.length, 0);
    parts.push(header, body);
    size += recordSize;
  }
  flush();
  return frames;
}

/**
 * Splits a binary frame into its records. Fails (as a value) on a truncated
 * length prefix or record, an empty record, a record longer than
 * `maxPayloadBytes`, or more than `maxBatchRecords` records.
 */
export function decodeRecords(frame: Buffer, limits: FramingLimits): DecodeRecordsResult {
  if (frame.length > limits.maxPayloadBytes) {
    return {
      ok: false,
      error: wsError(
        "payload_too_large",
        `binary frame of ${frame.length} bytes exceeds the limit`,
        {
          details: {
            bytes: frame.length,
            limit: limits.maxPayloadBytes,
          },
        },
      ),
    };
  }
  if (frame.length === 0) {
    return { ok: false, error: wsError("invalid_record", "binary frame carries no record") };
  }
  const records: Buffer[] = [];
  let offset = 0;
  while (offset < frame.length) {
    if (records.length >= limits.maxBatchRecords) {
      return {
        ok: false,
        error: wsError(
          "too_many_records",
          `binary frame carries more than ${limits.maxBatchRecords} records`,
          {
            details: {
              limit: limits.maxBatchRecords,
            },
          },
        ),
      };
    }
    if (frame.length - offset < RECORD_HEADER_BYTES) {
      return {
        ok: false,
        error: wsError("invalid_record", `truncated length prefix at byte ${offset}`, {
          details: { offset },
        }),
      };
    }
    const length = frame.readUInt32BE(offset);
    offset += RECORD_HEADER_BYTES;
    if (length === 0) {
      return {
        ok: false,
        error: wsError("invalid_record", `empty record at byte ${offset}`, { details: { offset } }),
      };
    }
    if (length > frame.length - offset) {
      return {
        ok: false,
        error: wsError(
          "invalid_record",
          `record declares ${length} bytes but ${frame.length - offset} remain`,
          { details: { offset, declared: length } },
        ),
      };
    }
    records.push(frame.subarray(offset, offset + length));
    offset += length;
  }
  return { ok: true, records };
}

/** The text of a record, or `invalid_utf8` (never a silently replaced character). */
export function recordText(
  record: Buffer,
): { ok: true; text: string } | { ok: false; error: WsError } {
  if (!isUtf8(record)) {
    return { ok: false, error: wsError("invalid_utf8", "record is not valid UTF-8") };
  }
  return { ok: true, text: record.toString("utf8") };
}

/** One inbound message: its text, and whether it came as a binary record. */
export interface InboundMessage {
  text: string;
  binary: boolean;
}

/** §6.3's text-frame delimiters: `<message>JSON</message>`. */
export const TEXT_FRAME_OPEN = "<message>";
export const TEXT_FRAME_CLOSE = "</message>";

/**
 * The JSON of a text frame: the frame itself, or what lies between §6.3's
 * `<message>` and `</message>` when the frame (ignoring surrounding
 * whitespace) is wrapped that way. We send bare JSON; both are accepted.
 */
export function unwrapTextFrame(text: string): string {
  const trimmed = text.trim();
  if (
    trimmed.length >= TEXT_FRAME_OPEN.length + TEXT_FRAME_CLOSE.length &&
    trimmed.startsWith(TEXT_FRAME_OPEN) &&
    trimmed.endsWith(TEXT_FRAME_CLOSE)
  ) {
    return trimmed.slice(TEXT_FRAME_OPEN.length, -TEXT_FRAME_CLOSE.length);
  }
  return text;
}

/**
 * The messages of one inbound frame: a text frame is one message (its UTF-8
 * was checked by `ws`; a §6.3 `<message>…</message>` wrapper is removed), a
 * binary frame is its records, each checked as UTF-8. Fails as a value on the
 * first bad record (no message of that frame is delivered then).
 */
export function frameMessages(
  frame: Buffer,
  isBinary: boolean,
  limits: FramingLimits,
): { ok: true; messages: InboundMessage[] } | { ok: false; error: WsError } {
  if (!isBinary) {
    return {
      ok: true,
      messages: [{ text: unwrapTextFrame(frame.toString("utf8")), binary: false }],
    };
  }
  const decoded = decodeRecords(frame, limits);
  if (!decoded.ok) return decoded;
  const messages: InboundMessage[] = [];
  for (const record of decoded.records) {
    const text = recordText(record);
    if (!text.ok) return text;
    messages.push({ text: text.text, binary: true });
  }
  return { ok: true, messages };
}

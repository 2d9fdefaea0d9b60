import { z } from "zod";
import { VERSION_PATTERN } from "./version.js";

/** The largest value of a Rust `u32`; wire counters and budgets are u32. */
export const U32_MAX = 4_294_967_295;

/**
 * A `u32` on the wire: an integer in [0, 2^32 - 1]. Negative, fractional and
 * out-of-range values are rejected at decode time, as serde does.
 */
export const U32Schema = z.number().int().min(0).max(U32_MAX);

/** A protocol version string (`ocp/MAJOR.MINOR[-draft]`). */
export const VersionStringSchema = z.string().regex(VERSION_PATTERN).meta({
  id: "versionString",
  description:
    "OCP protocol version string: ocp/MAJOR.MINOR with an optional -draft suffix. Two versions interoperate iff they share a major family (the substring up to the first dot).",
});

/** A string that must not be empty (conformance level). */
export const NonEmptyStringSchema = z.string().min(1);

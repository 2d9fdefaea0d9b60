import type { HttpMisbehaveMode, MisbehaveMode } from "../src/index.js";

/** What each misbehave mode must produce: its one failing check and the evidence naming the violation. */
export const EXPECTED: Record<MisbehaveMode, { check: string; stdio: RegExp; http?: RegExp }> = {
  "empty-identity": { check: "handshake", stdio: /^H2: provider\.name is empty \(""\)$/ },
  "bad-version": {
    check: "handshake",
    stdio: /^H1: acked protocol_version "ocp\/2\.0", not in the family ocp\/1 of ocp\/1\.0-draft$/,
  },
  "silent-on-mismatch": {
    check: "version-mismatch",
    stdio: /^H3: silent for 10000 ms after a handshake of ocp\/99\.0/,
  },
  "bad-score": {
    check: "frame-validity",
    stdio: /^F1: frame 0 \("fixture:getting-started"\): score 1\.5 is outside \[0, 1\]$/,
  },
  "empty-citation": {
    check: "frame-validity",
    stdio: /^F3: frame 0 \("fixture:getting-started"\): citation_label is missing or empty$/,
  },
  "crash-on-query": {
    check: "frame-validity",
    stdio: /was not answered with frames: the provider exited with code 1/,
    http: /was not answered with frames: transport failure: POST http:\/\/127\.0\.0\.1:\d+\/ failed/,
  },
  hang: { check: "frame-validity", stdio: /was not answered with frames: no reply within 2000 ms/ },
  "lying-costs": {
    check: "budget-honesty",
    stdio:
      /^B1: 3 frame\(s\) declare 299997 tokens, over max_tokens 4096 \(frame 0 \("fixture:getting-started"\): 99999;/,
  },
  "cheap-costs": {
    check: "cost-truth",
    stdio:
      /^T1: under-reports by more than 2× \+ 16: frame 0 \("fixture:retry-guide"\) declares 1, its content counts \d{4} o200k_base tokens \(allowed 18\)$/,
  },
  "invalid-schema": {
    check: "schema",
    // Connections run concurrently: the first bad message may come from either.
    stdio:
      /^S1: \d+ of \d+ message\(s\) fail the envelope schema: message \d+ \((main|malformed) connection, after [^)]+\): \/result\/frames\/0\/id must NOT have fewer than 1 characters, \/result\/frames\/0\/provenance\/0\/type must NOT have fewer than 1 characters/,
  },
  "wrong-kind": {
    check: "kinds-filter",
    stdio:
      /^K1: asked for kinds \[snippet\], got 2 of 3 frame\(s\) of other kinds: frame 0 \("fixture:getting-started"\) is a "doc"/,
  },
  "too-many-frames": {
    check: "max-frames",
    stdio: /^M1: asked for max_frames 1 \(the probe query returned 3\), got 3 frames$/,
  },
  "bad-correlation": {
    check: "correlation",
    stdio:
      /^X-CORR: declares correlation but reply 1 \(frames\) carries id "bogus-id", which no query had/,
  },
  "crash-on-garbage": {
    check: "malformed-input-tolerance",
    // Which input the exit is seen after depends on the machine's load; that it is seen does not.
    stdio: /^R1: the provider exited with code 1 after malformed input \d \(/,
    http: /^R1: malformed input 1 \(not JSON: "this is not valid json \{\{\{"\) was answered with transport failure: POST http:\/\/127\.0\.0\.1:\d+\/ failed: \w+; expected a 4xx OCP error \(bad_request\)$/,
  },
  "hang-on-shutdown": {
    check: "shutdown-clean",
    stdio:
      /^R2: still running 4000 ms after shutdown; (it exited only when its stdin was closed|its process group was killed)$/,
    http: /^R2: still running 4000 ms after shutdown; no answer$/,
  },
};

export const ADVISORY = new Set(["kinds-filter", "max-frames"]);

/** The evidence each HTTP-only mode must produce. */
export const EXPECTED_HTTP: Record<HttpMisbehaveMode, RegExp> = {
  "wrong-error-code":
    /^R1: malformed input 1 \(not JSON: "this is not valid json \{\{\{"\) was answered with HTTP 500 .*: an error answered with status 500, not 400-499; expected a 4xx OCP error \(bad_request\)$/,
  "garbage-after-shutdown":
    /^R2: a request after shutdown was answered with HTTP 500 "Internal Server Error", which is not an OCP envelope/,
  "refuse-shutdown":
    /^R2: shutdown failed: HTTP 400, an OCP error: "shutdown is not accepted here"$/,
};

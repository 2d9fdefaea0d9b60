import type { Readable, Writable } from "node:stream";
import {
  type ContextProvider,
  type ContextQuery,
  type ContextQueryResult,
  type EnvelopeInit,
  EXTENSIONS_ENV,
  type Extension,
  encodeLine,
  familyOfVersion,
  forPeer,
  isOcpError,
  PROTOCOL_VERSION,
  type ProtocolFamily,
  positiveLimit,
  readExtensions,
  readWireErrorCode,
  versionsCompatible,
  type WireErrorCode,
} from "@ocp/types";
import { decodeLineFast, encodeFramesLine, isPlainResult, writeFramesLine } from "@ocp/types/fast";
import { parseJsonText, settlesWithin } from "@ocp/types/internal";
import {
  type CgpReply,
  CgpResponder,
  type DualProvider,
  encodeCgp,
  guardAnswer,
  guardResult,
} from "@ocp/types/kit";
import { SHUTDOWN_GRACE_MS } from "./limits.js";
import { LineBatch } from "./line-batch.js";
import { LineSplitter } from "./line-splitter.js";

export interface ServeStdioOptions {
  /** Default `process.stdin`. */
  readonly input?: Readable;
  /** Default `process.stdout`: only envelopes are ever written to it. */
  readonly output?: Writable;
  /** Diagnostics; default: one line on `process.stderr`, never stdout. */
  readonly log?: (message: string) => void;
  /** Called once the loop is over, with 0; default `process.exit`. */
  readonly exit?: (code: number) => void;
  readonly maxLineBytes?: number;
  /** Bound on `provider.shutdown()` before the process exits anyway. */
  readonly shutdownGraceMs?: number;
  /**
   * The provider kit's guard rail on every answer (`guardResult` of
   * `@ocp/types/kit`): `fix` (default) repairs what breaks a rule and logs a
   * warning, `refuse` answers an `internal` error instead, `off` sends what
   * the provider returned.
   */
  readonly guard?: "fix" | "refuse" | "off";
  /**
   * Extensions the host asked for out of band; default the `OCP_EXTENSIONS`
   * environment variable (set by `@ocp/transport-stdio`'s spawn). A handshake
   * may add to them with its `extensions` list. A plain host gets none.
   */
  readonly extensions?: string;
  /**
   * The families served, chosen by each host's handshake: default both,
   * `ocp/1` (`ocp/1.0-draft`) and `contextgraph/1`
   * (`contextgraph/1.0-draft`). A handshake of a family left out is refused
   * `incompatible_version`.
   */
  readonly families?: readonly ProtocolFamily[];
}

export interface StdioServer {
  /** Settles with the exit code once the loop is over (`shutdown` or end of input). */
  readonly done: Promise<number>;
}

/** The error envelope for a failure of the served provider. */
function errorReply(error: unknown, id: string | undefined): EnvelopeInit {
  const code: WireErrorCode = isOcpError(error) ? readWireErrorCode(error.code) : "internal";
  const message = error instanceof Error ? error.message : String(error);
  return { type: "error", id, code, message: message === "" ? code : message };
}

/**
 * Serves `provider` over NDJSON on stdin/stdout until `shutdown` or the end
 * of stdin, then exits with code 0 (R2); a host that dies closes our stdin,
 * so a served provider never outlives it. A malformed line, an over-long
 * line or an unexpected envelope gets an `error` reply (`bad_request`) and
 * the loop goes on (R1). A query before a successful handshake is refused
 * (`bad_request`) and never reaches the provider. Queries that carry an `id`
 * run concurrently and their replies echo it; every other line (a query
 * without an id, a handshake, a line that gets an error) is answered one at
 * a time, in arrival order.
 *
 * The first successful handshake picks the session's family for good: an
 * `ocp/1` version the behaviour above, a `contextgraph/1` version the
 * provider kit's `CgpResponder` (CGP frames, `verify`, CGP errors with
 * their code), in the same order and with the same shutdown.
 *
 * @throws {OcpError} `invalid_provider` when the provider's CGP declarations
 *   break a handshake rule (C5 …): it never starts serving.
 */
export function serveStdio(
  provider: ContextProvider | DualProvider,
  options: ServeStdioOptions = {},
): StdioServer {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const log =
    options.log ?? ((message: string) => process.stderr.write(`[ocp ${provider.id}] ${message}\n`));
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const grace = positiveLimit("shutdownGraceMs", options.shutdownGraceMs, SHUTDOWN_GRACE_MS);
  const version = provider.protocolVersion ?? PROTOCOL_VERSION;
  const inFlight = new AbortController();
  const queryOptions = { signal: inFlight.signal };
  /** Answers not yet written, and what waits for them to be. */
  let running = 0;
  let allAnswered: (() => void) | undefined;
  let ordered: Promise<void> = Promise.resolve();
  let handshaken = false;
  /** What the host asked for (environment, handshake); a plain host gets no extension. */
  const asked = options.extensions ?? process.env[EXTENSIONS_ENV] ?? "";
  let peer: ReadonlySet<Extension> = readExtensions(asked);
  const guard = options.guard ?? "fix";
  const families = options.families ?? ["ocp/1", "contextgraph/1"];
  /** The CGP side; built now, so a provider whose declarations break C5 never starts. */
  const cgp = families.includes("contextgraph/1")
    ? new CgpResponder(provider, { mode: guard, warn: log })
    : undefined;
  /** The session's family: set once by the first successful handshake, never mixed. */
  let family: ProtocolFamily | undefined;
  let ending = false;
  let silent = false;
  let resolveDone!: (code: number) => void;
  const done = new Promise<number>((resolve) => {
    resolveDone = resolve;
  });

  /** Replies leave in batches (see {@link LineBatch}). */
  const replies = new LineBatch((text) => output.write(text));
  const write = (line: string): void => replies.push(line);

  const send = (envelope: EnvelopeInit): void => {
    if (silent) return;
    let line: string;
    try {
      line = encodeLine(forPeer(envelope, peer));
    } catch (error) {
      const id = "id" in envelope ? envelope.id : undefined;
      log(`provider returned an unencodable reply: ${(error as Error).message}`);
      line = encodeLine(errorReply(new Error("provider returned an invalid reply"), id));
    }
    write(line);
  };

  const answer = async (query: ContextQuery, id: string | undefined): Promise<void> => {
    running += 1;
    try {
      const raw = await provider.query(query, queryOptions);
      const declaredKinds = provider.capabilities.query.kinds;
      let result: ContextQueryResult;
      let line: string | undefined;
      // The reply line without the encoder's schema pass, byte for byte what encodeLine writes.
      if (guard !== "off" && isPlainResult(raw)) {
        // Checked once: an answer that keeps every rule comes back from the guard as it is.
        result = guardResult(query, raw, { mode: guard, declaredKinds, warn: log });
        line = result === raw ? writeFramesLine(id, raw) : encodeFramesLine(id, result);
      } else {
        // The guard repairs what decodes; what does not is refused by the encoder below.
        result = guardAnswer(query, raw, guard, { declaredKinds, warn: log }) as ContextQueryResult;
        line = encodeFramesLine(id, result);
      }
      if (line === undefined) send({ type: "frames", id, result });
      else if (!silent) write(line);
    } catch (error) {
      send(errorReply(error, id));
    } finally {
      running -= 1;
      if (running === 0) allAnswered?.();
    }
  };
  /** Settles once every answer begun so far is written (or failed). */
  const answered = (): Promise<void> =>
    running === 0
      ? Promise.resolve()
      : new Promise((resolve) => {
          allAnswered = resolve;
        });
  /** Queues the answer to a line without an id behind the answers to the lines before it. */
  const inOrder = (work: () => void | Promise<void>): void => {
    ordered = ordered
      .then(work)
      .catch((error: unknown) => log(`could not answer: ${(error as Error).message}`));
  };
  const sendCgp = (reply: CgpReply): void => {
    if (!silent) write(`${encodeCgp(reply)}\n`);
  };
  const refuse = (code: WireErrorCode, message: string): void =>
    inOrder(() =>
      family === "contextgraph/1"
        ? sendCgp({ type: "error", code, message })
        : send({ type: "error", code, message }),
    );
  /** Runs one CGP answer, counted as running so `shutdown` lets it finish. */
  const cgpAnswer = async (work: () => Promise<CgpReply>): Promise<void> => {
    running += 1;
    try {
      sendCgp(await work());
    } finally {
      running -= 1;
      if (running === 0) allAnswered?.();
    }
  };
  /** A line of a session whose handshake chose `contextgraph/1` (or that handshake itself). */
  const onCgpValue = (responder: CgpResponder, value: unknown): void => {
    const request = responder.read(value);
    switch (request.type) {
      case "handshake":
        inOrder(() => sendCgp(responder.handshake(request.version)));
        return;
      case "query":
      case "verify": {
        const work = () =>
          request.type === "query"
            ? responder.query(request.query, request.id, inFlight.signal)
            : responder.verify(request.frames, request.id, inFlight.signal);
        if (request.id !== undefined) void cgpAnswer(work);
        else inOrder(() => cgpAnswer(work));
        return;
      }
      case "shutdown":
        void end("shutdown requested", true);
        return;
      case "ignore":
        log(`ignored ${request.message}`);
        return;
      default:
        log(`refused: ${request.message}`);
        inOrder(() =>
          sendCgp({ type: "error", id: request.id, code: request.code, message: request.message }),
        );
    }
  };
  /**
   * Before an `ocp/1` handshake: whether `line` is a handshake offering a
   * `contextgraph/1` version (then the session is CGP from here on) or a
   * line of a CGP session; either way handled here.
   */
  const onCgpLine = (line: string): boolean => {
    if (cgp === undefined || family === "ocp/1") return false;
    if (family === undefined && !line.includes('"handshake"')) return false;
    const json = parseJsonText(line.endsWith("\r") ? line.slice(0, -1) : line);
    if (!json.ok) {
      if (family === undefined) return false;
      log(`malformed line: ${json.error.message}`);
      refuse("bad_request", json.error.message);
      return true;
    }
    if (family === undefined) {
      const value = json.value as { type?: unknown; protocol_version?: unknown } | null;
      if (value === null || typeof value !== "object" || value.type !== "handshake") return false;
      const version = String(value.protocol_version);
      // A contextgraph/ version of a major we do not speak is refused the CGP way, code and all.
      if (!version.startsWith("contextgraph/")) return false;
      if (familyOfVersion(version) === "contextgraph/1") family = "contextgraph/1";
    }
    onCgpValue(cgp, json.value);
    return true;
  };

  /**
   * Ends the loop: stops reading; on `shutdown`, lets queries in flight answer
   * within the grace (the end of input means nobody reads them any more);
   * aborts what is left, tears the provider down within the grace, exits 0.
   */
  const end = async (reason: string, drain: boolean): Promise<void> => {
    if (ending) return;
    ending = true;
    input.removeListener("data", onData);
    input.pause();
    if (drain && !(await settlesWithin(Promise.all([answered(), ordered]), grace))) {
      log(`queries still running after ${grace} ms; aborting them`);
    }
    silent = true;
    inFlight.abort(new Error(reason));
    const teardown = Promise.resolve()
      .then(() => provider.shutdown())
      .catch((error: unknown) => log(`provider.shutdown() failed: ${(error as Error).message}`));
    if (!(await settlesWithin(teardown, grace))) {
      log(`provider.shutdown() took over ${grace} ms; exiting anyway`);
    }
    replies.flush();
    output.write("", () => {
      resolveDone(0);
      exit(0);
    });
  };

  const onLine = (line: string): void => {
    if (onCgpLine(line)) return;
    const decoded = decodeLineFast(line);
    if (!decoded.ok) {
      log(`malformed line: ${decoded.error.message}`);
      refuse("bad_request", decoded.error.message);
      return;
    }
    const envelope = decoded.value;
    switch (envelope.type) {
      case "handshake":
        peer = readExtensions([...asked.split(","), ...(envelope.extensions ?? [])]);
        if (!families.includes("ocp/1")) {
          refuse(
            "incompatible_version",
            `this provider speaks contextgraph/1.0-draft only, not ${envelope.protocol_version}`,
          );
          return;
        }
        if (!versionsCompatible(version, envelope.protocol_version)) {
          refuse(
            "incompatible_version",
            `this provider speaks ${version}, not ${envelope.protocol_version}`,
          );
          return;
        }
        handshaken = true;
        family = "ocp/1";
        inOrder(() =>
          send({
            type: "handshake_ack",
            protocol_version: version,
            provider: provider.info,
            capabilities: provider.capabilities,
          }),
        );
        return;
      case "query": {
        const { id, query } = envelope;
        if (!handshaken) {
          log("query before the handshake: refused");
          const message = `no successful handshake yet: send a handshake (${version}) before any query`;
          const reply = { type: "error", id, code: "bad_request", message } as const;
          if (id !== undefined) send(reply);
          else inOrder(() => send(reply));
        } else if (id !== undefined) {
          void answer(query, id);
        } else {
          inOrder(() => answer(query, undefined));
        }
        return;
      }
      case "shutdown":
        void end("shutdown requested", true);
        return;
      default:
        refuse("bad_request", `a provider does not accept "${envelope.type}"`);
    }
  };

  const splitter = new LineSplitter({
    maxLineBytes: options.maxLineBytes,
    onLine,
    onOverflow: (error) => {
      log(error.message);
      refuse("bad_request", error.message);
    },
  });
  const onData = (chunk: Buffer | string): void => {
    splitter.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  };
  input.on("data", onData);
  input.once("end", () => void end("end of input", false));
  input.once("error", (error) => {
    log(`input failed: ${error.message}`);
    void end("input failed", false);
  });
  output.on("error", (error) => {
    log(`output failed: ${error.message}`);
    void end("output failed", false);
  });
  return { done };
}

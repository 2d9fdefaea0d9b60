import { compose, Host } from "@ocp/host";
import { FENCE_CLOSE, FENCE_OPEN } from "@ocp/host/internal";
import type { ContextFrame, ContextProvider, ContextQuery, ContextQueryResult } from "@ocp/types";

/** A fan-out as the harness reads it: every outcome a value. */
export interface HostFanOut {
  readonly accepted: readonly { readonly providerId: string; readonly frame: ContextFrame }[];
  /** B2: providers whose frames were dropped, with the host's report. */
  readonly dropped: readonly { readonly providerId: string; readonly report: string }[];
  /** Providers that produced nothing: refused (consent), crashed, timed out. */
  readonly failed: readonly { readonly providerId: string; readonly reason: string }[];
}

/** A span of composed text that the host fenced as quoted, untrusted data. */
export interface FencedSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * What the host-side harness needs of a host. `ourHost` adapts
 * `@ocp/host`; another host implements the same interface to be judged by
 * the same checks. Each check gets a fresh host and shuts it down.
 */
export interface HostUnderTest {
  /** Spawns and registers a stdio provider; rejects with a named error when the host refuses it. */
  addStdio(id: string, command: string, args: readonly string[]): Promise<void>;
  addInProcess(provider: ContextProvider): Promise<void>;
  addHttp(id: string, url: string): Promise<void>;
  grantConsent(providerId: string): Promise<void>;
  queryAll(query: ContextQuery): Promise<HostFanOut>;
  /** Queries one provider; rejects when the host refuses to send (C2) or drops the answer (B2). */
  query(providerId: string, query: ContextQuery): Promise<ContextQueryResult>;
  /** Composes accepted frames into prompt text. */
  compose(frames: HostFanOut["accepted"]): string;
  /** The spans of `text` the host fenced as quoted data, one per frame, in the host's own syntax. */
  fencedSpans(text: string): FencedSpan[];
  shutdown(): Promise<void>;
}

/** Finds `<<<frame N …>>>` … `<<<end frame N>>>` blocks (`@ocp/host`'s fence, R3). */
export function ocpHostFencedSpans(text: string): FencedSpan[] {
  const spans: FencedSpan[] = [];
  const opener = new RegExp(
    `^${escapeRegExp(FENCE_OPEN)}frame (\\d+) .*${escapeRegExp(FENCE_CLOSE)}$`,
    "gm",
  );
  for (let match = opener.exec(text); match !== null; match = opener.exec(text)) {
    const start = match.index + match[0].length + 1;
    const closer = `\n${FENCE_OPEN}end frame ${match[1]}${FENCE_CLOSE}`;
    const end = text.indexOf(closer, start - 1);
    if (end === -1) continue;
    spans.push({ start, end });
    opener.lastIndex = end + closer.length;
  }
  return spans;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `@ocp/host` as a {@link HostUnderTest}. Its loud reports go to `warn` (default: dropped). */
export function ourHost(
  options: { warn?: (line: string) => void; legTimeoutMs?: number } = {},
): HostUnderTest {
  const host = new Host({
    warn: options.warn ?? (() => {}),
    legTimeoutMs: options.legTimeoutMs ?? 5_000,
  });
  return {
    async addStdio(id, command, args) {
      await host.addStdio({ id, command, args });
    },
    async addInProcess(provider) {
      host.add(provider);
    },
    async addHttp(id, url) {
      await host.addHttp({ id, url });
    },
    async grantConsent(providerId) {
      await host.grantConsent(providerId, { grantedBy: "ocp-conformance host harness" });
    },
    async queryAll(query) {
      const result = await host.queryAll(query);
      return {
        accepted: result.accepted,
        dropped: result.liars.map((liar) => ({
          providerId: liar.providerId,
          report: liar.message,
        })),
        failed: result.failures.map((failure) => ({
          providerId: failure.providerId,
          reason: `${failure.reason}: ${failure.error.message}`,
        })),
      };
    },
    query: (providerId, query) => host.queryProvider(providerId, query),
    compose: (frames) => compose({ accepted: frames }, { maxTokens: 100_000 }).text,
    fencedSpans: ocpHostFencedSpans,
    async shutdown() {
      await host.shutdown();
    },
  };
}

import type { Composition, FanOutResult, ProviderListing } from "@ocp/host";

/** A provider that could not be started (its reason: a crashed child's last stderr line, say). */
export interface NotStarted {
  readonly providerId: string;
  readonly code: string;
  readonly message: string;
}

/** Everything one run of the demo host found out, as printed or as `--json`. */
export interface RunReport {
  readonly question: string;
  readonly providers: readonly ProviderListing[];
  readonly notStarted?: readonly NotStarted[];
  readonly fanOut: FanOutResult;
  readonly composition: Composition;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/** One line per provider: identity, transport, data flow and consent. */
export function describeProviders(providers: readonly ProviderListing[]): string {
  return table(
    ["provider", "name", "version", "transport", "reads", "writes", "egress", "consent"],
    providers.map((p) => [
      p.id,
      p.info.name,
      p.info.version,
      p.family === "contextgraph/1" ? `${p.transport}, ${p.family}` : p.transport,
      String(p.info.data_flow.reads),
      String(p.info.data_flow.writes),
      p.egress ? (p.info.data_flow.egress ? "true" : "true (remote)") : "false",
      p.consent === "not_needed" ? "-" : p.consent,
    ]),
  );
}

/** The human report: composed section, frames used, drops, per-provider usage. */
export function renderText(report: RunReport): string {
  const { fanOut, composition } = report;
  const out: string[] = [];
  out.push(`Question: ${report.question}`, "");
  out.push("== Providers", describeProviders(report.providers), "");
  out.push(
    `== Composed context (${composition.tokens} of ${composition.maxTokens} tokens, ${composition.included.length} frames)`,
  );
  out.push(composition.text === "" ? "(no frame fits)" : composition.text, "");
  out.push("== Frames used");
  out.push(
    composition.included.length === 0
      ? "(none)"
      : table(
          ["#", "provider", "citation", "score", "tokens"],
          composition.included.map((c) => [
            String(c.n),
            c.providerId,
            c.label,
            c.score.toFixed(3),
            String(c.tokens),
          ]),
        ),
    "",
  );
  const drops: string[] = [];
  for (const failure of fanOut.failures) {
    drops.push(
      `${failure.providerId}: not queried or no answer (${failure.reason}): ${failure.error.message}`,
    );
  }
  for (const liar of fanOut.liars) drops.push(`${liar.providerId}: DROPPED (B2): ${liar.message}`);
  for (const skipped of fanOut.skipped) {
    drops.push(
      `${skipped.providerId}: skipped, serves none of the kinds asked (${skipped.declaredKinds.join(", ")})`,
    );
  }
  for (const dropped of composition.dropped) {
    drops.push(
      `${dropped.providerId} ${dropped.frameId}: left out (${dropped.reason}): ${dropped.detail}`,
    );
  }
  out.push("== Dropped and why", drops.length === 0 ? "(nothing)" : drops.join("\n"), "");
  out.push("== Usage");
  out.push(
    table(
      ["provider", "outcome", "frames", "accepted", "tokens", "latency"],
      fanOut.usage.map((u) => [
        u.providerId,
        u.outcome,
        String(u.frames),
        String(u.acceptedFrames),
        String(u.tokens),
        `${u.latencyMs.toFixed(0)} ms`,
      ]),
    ),
  );
  out.push(`fan-out took ${fanOut.elapsedMs.toFixed(0)} ms`);
  return `${out.join("\n")}\n`;
}

/** The machine report of `--json`: plain data, errors flattened to code and message. */
export function renderJson(report: RunReport): string {
  const { fanOut, composition } = report;
  return `${JSON.stringify(
    {
      question: report.question,
      providers: report.providers,
      notStarted: report.notStarted ?? [],
      composed: {
        text: composition.text,
        tokens: composition.tokens,
        maxTokens: composition.maxTokens,
        included: composition.included.map((citation) => ({
          ...citation,
          provenance:
            fanOut.accepted.find(
              (a) => a.providerId === citation.providerId && a.frame.id === citation.frameId,
            )?.frame.provenance ?? [],
        })),
        dropped: composition.dropped,
      },
      failures: fanOut.failures.map((f) => ({
        providerId: f.providerId,
        reason: f.reason,
        code: f.error.code,
        message: f.error.message,
        latencyMs: f.latencyMs,
      })),
      liars: fanOut.liars.map((l) => ({
        providerId: l.providerId,
        message: l.message,
        violations: l.violations,
      })),
      skipped: fanOut.skipped,
      // contextgraph/1: accepted frames never composed (U2 opaque kinds, reference frames).
      setAside: [
        ...fanOut.opaque.map((o) => ({
          providerId: o.providerId,
          frameId: o.frame.id,
          why: "opaque_kind",
        })),
        ...fanOut.unresolved.map((u) => ({
          providerId: u.providerId,
          frameId: u.frame.id,
          why: "reference",
        })),
      ],
      usage: fanOut.usage,
      elapsedMs: fanOut.elapsedMs,
    },
    null,
    2,
  )}\n`;
}

/** The `--json` document of a run in which no provider could be started. */
export function renderNoProvider(question: string, notStarted: readonly NotStarted[]): string {
  const error = { code: "no_provider", message: "no provider could be started" };
  return `${JSON.stringify({ question, providers: [], notStarted, error }, null, 2)}\n`;
}

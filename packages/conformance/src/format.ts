import { type CheckResult, type ConformanceReport, decides, tally } from "./report.js";

export interface FormatOptions {
  /** ANSI colours. Default false. */
  readonly color?: boolean;
}

const CODES = { red: 31, green: 32, yellow: 33, cyan: 36, dim: 2, bold: 1 } as const;
type Style = keyof typeof CODES;

/**
 * The human form of a report, as `ocp-inspect` prints it: the negotiated
 * identity, data flow and capabilities, the frames of the probe query, every
 * check with ✓ / ✗ / – and its evidence, then the verdict line.
 */
export function formatReport(report: ConformanceReport, options: FormatOptions = {}): string {
  const paint = (style: Style, text: string) =>
    options.color === true ? `\u001b[${CODES[style]}m${text}\u001b[0m` : text;
  const lines: string[] = [];
  const isHost = report.transport === "host";
  const cgp = report.family === "contextgraph/1";
  lines.push(
    paint(
      "dim",
      `── ${cgp ? "CGP (contextgraph/1)" : "OCP"} ${isHost ? "host" : "provider"}: ${report.target} ──`,
    ),
  );
  const identity = report.identity;
  const cgpIdentity = report.cgpIdentity;
  if (isHost && cgp) {
    lines.push(
      "  host-side harness over the wire: adversarial providers against the host command (B2, B4, C1, C2, C6, F5 bytes, R3)",
    );
  } else if (isHost) {
    lines.push(
      "  host-side harness: adversarial providers against the host (H3, B2, C1, C2, C4, R3, isolation)",
    );
  } else if (cgp) {
    if (cgpIdentity === undefined)
      lines.push(`  ${paint("red", "no handshake_ack: identity unknown")}`);
    else {
      const { provider, capabilities } = cgpIdentity;
      const flow = provider.data_flow;
      const scopes = Array.isArray(flow.egress_scopes)
        ? ` scopes=[${flow.egress_scopes.join(", ")}]`
        : "";
      lines.push(
        `  ${paint("bold", "provider")}     ${paint("cyan", provider.name || "(empty name)")} v${provider.version || "(empty)"} — ${cgpIdentity.protocol_version}`,
      );
      lines.push(
        `  ${paint("bold", "data-flow")}    reads=${flow.reads === true} writes=${flow.writes === true} egress=${flow.egress === true}${scopes}`,
      );
      const declared = ["correlation", "graph", "verify", "resolve"]
        .map((name) => `${name}=${capabilities[name] === true}`)
        .join(" ");
      lines.push(`  ${paint("bold", "capabilities")} ${declared}`);
      if (typeof capabilities.embeddings_fingerprint === "string") {
        lines.push(`  ${paint("bold", "embedder")}     ${capabilities.embeddings_fingerprint}`);
      }
    }
  } else if (identity === undefined) {
    lines.push(`  ${paint("red", "no handshake_ack: identity unknown")}`);
  } else {
    const { provider, capabilities } = identity;
    const flow = provider.data_flow;
    lines.push(
      `  ${paint("bold", "provider")}     ${paint("cyan", provider.name || "(empty name)")} v${provider.version || "(empty)"} — ${identity.protocol_version}`,
    );
    const flowText = `reads=${flow.reads} writes=${flow.writes} egress=${flow.egress}`;
    lines.push(
      `  ${paint("bold", "data-flow")}    ${paint(flow.egress ? "yellow" : "green", flowText)}`,
    );
    if (flow.egress || report.transport === "http") {
      lines.push(
        `  ${paint("yellow", "⚠ egress: a host must ask for consent before it sends this provider a query (C1, C2, C4)")}`,
      );
    }
    lines.push(
      `  ${paint("bold", "capabilities")} kinds=[${capabilities.query.kinds.join(", ")}] filters=[${capabilities.query.filters.join(", ")}] upsert=${capabilities.upsert} graph=${capabilities.graph} subscribe=${capabilities.subscribe} correlation=${capabilities.correlation === true}`,
    );
    if (capabilities.embeddings_fingerprint) {
      lines.push(`  ${paint("bold", "embedder")}     ${capabilities.embeddings_fingerprint}`);
    }
  }
  const probe = report.probe;
  if (probe !== undefined) {
    lines.push(
      paint(
        "dim",
        `── query “${probe.goal}” (max_tokens ${probe.max_tokens}, max_frames ${probe.max_frames}): ${probe.outcome} ──`,
      ),
    );
    for (const frame of probe.frames) {
      const label = frame.citation_label?.trim()
        ? frame.citation_label
        : `${frame.title} (no citation label)`;
      lines.push(
        `  ${paint("dim", `[${frame.score.toFixed(2)}]`)} ${paint("cyan", label)}  ${frame.title}  ${paint("dim", `${frame.kind} · ${frame.token_cost} tok`)}`,
      );
    }
  }
  lines.push(...formatChecks(report, options, "conformance"));
  return `${lines.join("\n")}\n`;
}

/** What {@link formatChecks} needs of a report: its checks and verdict. */
export type CheckedReport = Pick<ConformanceReport, "checks" | "strict" | "conformant">;

/**
 * The check lines and the verdict line of a report, as `ocp-inspect` prints
 * them (✓ / ✗ / – with requirement ids, advisory tags and evidence): shared
 * by every suite that reports {@link CheckResult}s (`ocp-test` too).
 */
export function formatChecks(
  report: CheckedReport,
  options: FormatOptions = {},
  title = "conformance",
): string[] {
  const paint = (style: Style, text: string) =>
    options.color === true ? `\u001b[${CODES[style]}m${text}\u001b[0m` : text;
  const lines: string[] = [];
  lines.push(paint("dim", `── ${title}${report.strict ? " (strict)" : ""} ──`));
  for (const check of report.checks) {
    const mark =
      check.status === "pass"
        ? paint("green", "✓")
        : check.status === "fail"
          ? paint("red", "✗")
          : paint("dim", "–");
    const tag = check.advisory
      ? decides(check, report.strict)
        ? " (advisory, strict)"
        : " (advisory)"
      : "";
    const name = `${check.name} [${check.requirements.join(", ")}]${tag}`;
    const styled =
      check.status === "pass"
        ? paint("green", name)
        : check.status === "fail"
          ? paint("red", name)
          : paint("dim", name);
    lines.push(`  ${mark} ${styled}`);
    lines.push(`      ${paint("dim", check.evidence)}`);
  }
  const counts = tally(report);
  const advisory =
    counts.advisoryFailed > 0 && !report.strict
      ? `, ${counts.advisoryFailed} advisory failure(s) not deciding`
      : "";
  lines.push(
    report.conformant
      ? paint(
          "green",
          `  CONFORMANT — ${counts.passed} passed, ${counts.skipped} skipped${advisory}`,
        )
      : paint(
          "red",
          `  NOT CONFORMANT — ${counts.failed} failed, ${counts.passed} passed, ${counts.skipped} skipped`,
        ),
  );
  return lines;
}

/** Exit codes of the suites' CLIs: 0 conformant, 1 not conformant, 2 bad usage. */
export const EXIT_CODES = { conformant: 0, notConformant: 1, usage: 2 } as const;

/** The exit code of a finished run. */
export function exitCodeOf(report: Pick<ConformanceReport, "conformant">): 0 | 1 {
  return report.conformant ? EXIT_CODES.conformant : EXIT_CODES.notConformant;
}

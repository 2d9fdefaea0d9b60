import { type Capabilities, type ProviderInfo, RULES } from "@ocp/types";

/** The stable check names, shared with the Rust reference where it has them. */
export const CHECKS = {
  handshake: "handshake",
  frameValidity: "frame-validity",
  budgetHonesty: "budget-honesty",
  costTruth: "cost-truth",
  shutdown: "shutdown-clean",
  malformed: "malformed-input-tolerance",
  versionMismatch: "version-mismatch",
  schema: "schema",
  kindsFilter: "kinds-filter",
  maxFrames: "max-frames",
  correlation: "correlation",
} as const;

/** The host-side check names (`runHostConformance`). */
export const HOST_CHECKS = {
  versionReject: "host-version-reject",
  budgetDrop: "host-budget-drop",
  consentGate: "host-consent-gate",
  httpEgress: "host-http-egress",
  contentFencing: "host-content-fencing",
  crashIsolation: "host-crash-isolation",
} as const;

/** Check names only the contextgraph/1 family has (upstream's names). */
export const CGP_ONLY_CHECKS = {
  consentScope: "consent-scope",
  verifyHonesty: "verify-honesty",
  asOf: "as-of-temporal",
  embeddingFingerprint: "embedding-fingerprint",
} as const;

/** The host-side check names of the contextgraph/1 family (`runCgpHostConformance`). */
export const CGP_HOST_CHECKS = {
  budgetDrop: "host-budget-drop",
  frameLimit: "host-frame-limit",
  consentGate: "host-consent-gate",
  scopeReceipt: "host-scope-receipt",
  provenanceBytes: "host-provenance-bytes",
  contentQuoting: "host-content-quoting",
} as const;

export type CheckName =
  | (typeof CHECKS)[keyof typeof CHECKS]
  | (typeof HOST_CHECKS)[keyof typeof HOST_CHECKS]
  | (typeof CGP_ONLY_CHECKS)[keyof typeof CGP_ONLY_CHECKS]
  | (typeof CGP_HOST_CHECKS)[keyof typeof CGP_HOST_CHECKS];

/** Whether a check decides the verdict (a MUST of `ocp/1.0-draft`) or only advises. */
export interface CheckSpec {
  readonly name: CheckName;
  /** Requirement ids the check verifies (see the README). */
  readonly requirements: readonly string[];
  /** Advisory checks fail a run only under `strict`. */
  readonly advisory: boolean;
}

/** Whether the rule table (`RULES` of `@ocp/types`) makes a check advisory. */
function advisoryByRules(name: CheckName): boolean {
  const rules = RULES.filter((rule) => rule.check === name);
  return rules.length > 0 && rules.every((rule) => rule.suite === "advisory");
}

/** Every provider check, in report order; advisory exactly where the rule table says so. */
export const CHECK_SPECS: readonly CheckSpec[] = (
  [
    ["handshake", ["H1", "H2"]],
    ["version-mismatch", ["H3"]],
    ["frame-validity", ["F1", "F2", "F3"]],
    ["budget-honesty", ["B1"]],
    ["cost-truth", ["T1"]],
    ["schema", ["S1"]],
    ["kinds-filter", ["K1"]],
    ["max-frames", ["M1"]],
    ["correlation", ["X-CORR"]],
    ["malformed-input-tolerance", ["R1"]],
    ["shutdown-clean", ["R2"]],
  ] as const
).map(([name, requirements]) => ({ name, requirements, advisory: advisoryByRules(name) }));

/** Every host-side check, in report order. All of them decide. */
export const HOST_CHECK_SPECS: readonly CheckSpec[] = [
  { name: "host-version-reject", requirements: ["H3"], advisory: false },
  { name: "host-budget-drop", requirements: ["B2"], advisory: false },
  { name: "host-consent-gate", requirements: ["C1", "C2"], advisory: false },
  { name: "host-http-egress", requirements: ["C4"], advisory: false },
  { name: "host-content-fencing", requirements: ["R3"], advisory: false },
  { name: "host-crash-isolation", requirements: ["X-ISO"], advisory: false },
];

/**
 * Every provider check of the contextgraph/1 family, in report order: each of
 * upstream's checks, then ours that apply (version-mismatch). All decide, as
 * upstream's do; requirement ids are CGP's (SPEC.md).
 */
export const CGP_CHECK_SPECS: readonly CheckSpec[] = (
  [
    ["handshake", ["H1", "H2"]],
    ["version-mismatch", ["H3"]],
    ["consent-scope", ["C5"]],
    ["frame-validity", ["F1", "F2", "F3", "F4", "F5", "D1", "G1", "G2", "P1", "P2", "P3"]],
    ["budget-honesty", ["B1", "B3", "B4", "P4"]],
    ["verify-honesty", ["V1", "V2", "V3", "V4"]],
    ["as-of-temporal", ["F4", "§6.1"]],
    ["correlation", ["H4"]],
    ["embedding-fingerprint", ["E1"]],
    ["malformed-input-tolerance", ["R1", "U1"]],
    ["shutdown-clean", ["R2"]],
  ] as const
).map(([name, requirements]) => ({ name, requirements, advisory: false }));

/** Every host-side check of the contextgraph/1 family, in report order. All decide. */
export const CGP_HOST_CHECK_SPECS: readonly CheckSpec[] = [
  { name: "host-budget-drop", requirements: ["B1", "B2"], advisory: false },
  { name: "host-frame-limit", requirements: ["B4"], advisory: false },
  { name: "host-consent-gate", requirements: ["C1", "C2"], advisory: false },
  { name: "host-scope-receipt", requirements: ["C6"], advisory: false },
  { name: "host-provenance-bytes", requirements: ["F5"], advisory: false },
  { name: "host-content-quoting", requirements: ["R3"], advisory: false },
];

export type CheckStatus = "pass" | "fail" | "skipped";

/** One check's outcome: which check, its verdict, and evidence that names the exact violation. */
export interface CheckResult {
  readonly name: string;
  readonly status: CheckStatus;
  readonly evidence: string;
  readonly requirements: readonly string[];
  readonly advisory: boolean;
}

/** What the provider said about itself at the handshake, when it got that far. */
export interface NegotiatedIdentity {
  readonly protocol_version: string;
  readonly provider: ProviderInfo;
  readonly capabilities: Capabilities;
}

/** A CGP provider's identity as `ocp-inspect` read it from its `handshake_ack`. */
export interface CgpIdentity {
  readonly protocol_version: string;
  readonly provider: {
    readonly name: string;
    readonly version: string;
    readonly data_flow: Readonly<Record<string, unknown>>;
  };
  readonly capabilities: Readonly<Record<string, unknown>>;
}

/** One frame of the probe query, as `ocp-inspect` shows it (cited by label, never by id alone). */
export interface FrameSummary {
  readonly id: string;
  readonly kind: string;
  readonly title: string;
  readonly score: number;
  readonly token_cost: number;
  readonly citation_label?: string;
}

/** The probe query and what it got. */
export interface ProbeSummary {
  readonly goal: string;
  readonly max_tokens: number;
  readonly max_frames: number;
  /** "3 frame(s)", "error (internal): …", "no reply within 10000 ms". */
  readonly outcome: string;
  readonly frames: readonly FrameSummary[];
  readonly truncated?: boolean;
}

/** The result of a run: every check against a described target, and the verdict. */
export interface ConformanceReport {
  /** One line naming the target: `stdio: node fixture.js`, `http: http://…`, `in-process: id`. */
  readonly target: string;
  /** Which family's rulebook judged the run; absent means ocp/1 (every run before CGP). */
  readonly family?: "ocp/1" | "contextgraph/1";
  /** Under contextgraph/1: what the provider said at the handshake, as it sent it (U1: unknown members kept out). */
  readonly cgpIdentity?: CgpIdentity;
  /** How the target was reached; `host` for a host-side run. */
  readonly transport: "stdio" | "http" | "in-process" | "host";
  readonly identity?: NegotiatedIdentity;
  readonly probe?: ProbeSummary;
  /** Whether advisory checks decided the verdict too. */
  readonly strict: boolean;
  readonly checks: readonly CheckResult[];
  /** No deciding check failed (and, under `strict`, no advisory one either). */
  readonly conformant: boolean;
}

export interface Tally {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  /** Failed checks that are advisory (they did not decide the verdict unless strict). */
  readonly advisoryFailed: number;
}

/** Which table a check's requirement ids and advisory flag come from. */
export type CheckTable = "ocp" | "ocp-host" | "cgp" | "cgp-host";

const TABLES: Record<CheckTable, readonly CheckSpec[]> = {
  ocp: CHECK_SPECS,
  "ocp-host": HOST_CHECK_SPECS,
  cgp: CGP_CHECK_SPECS,
  "cgp-host": CGP_HOST_CHECK_SPECS,
};

function spec(name: CheckName, table?: CheckTable): CheckSpec {
  const specs = table === undefined ? [...CHECK_SPECS, ...HOST_CHECK_SPECS] : TABLES[table];
  const found = specs.find((entry) => entry.name === name);
  if (found === undefined) throw new RangeError(`unknown check ${name}`);
  return found;
}

export function pass(name: CheckName, evidence: string, table?: CheckTable): CheckResult {
  return { ...result(name, table), status: "pass", evidence };
}

export function fail(name: CheckName, evidence: string, table?: CheckTable): CheckResult {
  return { ...result(name, table), status: "fail", evidence };
}

export function skip(name: CheckName, evidence: string, table?: CheckTable): CheckResult {
  return { ...result(name, table), status: "skipped", evidence };
}

function result(name: CheckName, table?: CheckTable): Omit<CheckResult, "status" | "evidence"> {
  const { requirements, advisory } = spec(name, table);
  return { name, requirements, advisory };
}

/** Whether a check's failure decides the verdict. */
export function decides(check: Pick<CheckResult, "advisory">, strict: boolean): boolean {
  return strict || !check.advisory;
}

/** The verdict: no deciding check failed. Skips never fail a run. */
export function isConformant(checks: readonly CheckResult[], strict: boolean): boolean {
  return !checks.some((check) => check.status === "fail" && decides(check, strict));
}

export function tally(report: Pick<ConformanceReport, "checks">): Tally {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let advisoryFailed = 0;
  for (const check of report.checks) {
    if (check.status === "pass") passed += 1;
    else if (check.status === "skipped") skipped += 1;
    else {
      failed += 1;
      if (check.advisory) advisoryFailed += 1;
    }
  }
  return { passed, failed, skipped, advisoryFailed };
}

/** The checks that failed, in report order. */
export function failures(report: Pick<ConformanceReport, "checks">): CheckResult[] {
  return report.checks.filter((check) => check.status === "fail");
}

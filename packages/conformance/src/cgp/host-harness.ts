import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { killGroup } from "@ocp/transport-stdio/process";
import { excerpt } from "../evidence.js";
import { ocpHostFencedSpans } from "../host-adapter.js";
import { HOST_RUN_TIMEOUT_MS, MAX_HOST_OUTPUT_BYTES, positiveBound } from "../limits.js";
import {
  CGP_HOST_CHECK_SPECS,
  type CheckName,
  type CheckResult,
  type ConformanceReport,
  fail,
  isConformant,
  pass,
} from "../report.js";
import {
  BENIGN,
  FORGED,
  type HostScenario,
  INJECTION,
  markerOf,
  providerIdOf,
} from "./host-provider.js";

/**
 * A host under test, reached only through its command line: the harness runs
 * `command args… [grantFlag ID] -- ID=node host-provider.js SCENARIO RECORD
 * [SOURCE]` in a fresh temporary working directory, one provider per run, and
 * reads what the host prints (its composed context on stdout, its reports on
 * stdout or stderr).
 */
export interface CgpHostCommand {
  readonly command: string;
  readonly args?: readonly string[];
  /** The flag that records consent (and a receipt for each declared scope) for a provider id. Default `--grant`. */
  readonly grantFlag?: string;
  /** One line naming the host, for the report. */
  readonly name?: string;
  /** Bound on one run of the host command; default {@link HOST_RUN_TIMEOUT_MS}. */
  readonly runTimeoutMs?: number;
}

/** What one run of the host showed. */
interface HostRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
  /** The envelope types the provider received, in order. */
  readonly received: readonly string[];
  readonly timedOut: boolean;
}

/** The scenario providers' script, run with node (built `dist`, like the fixture's CLI). */
const PROVIDER_SCRIPT = join(
  dirname(dirname(dirname(fileURLToPath(import.meta.url)))),
  "dist",
  "cgp",
  "host-provider.js",
);

function capped(chunks: Buffer[], chunk: Buffer, total: { bytes: number }): void {
  if (total.bytes >= MAX_HOST_OUTPUT_BYTES) return;
  total.bytes += chunk.length;
  chunks.push(chunk);
}

async function runHost(
  host: CgpHostCommand,
  scenario: HostScenario,
  options: { grant: boolean; source?: string; timeoutMs: number },
): Promise<HostRun> {
  const dir = await mkdtemp(join(tmpdir(), "cgp-host-harness-"));
  try {
    const record = join(dir, "received.log");
    await writeFile(record, "");
    let source = options.source;
    if (source !== undefined) {
      source = join(dir, source);
      await writeFile(source, "abc");
    }
    const id = providerIdOf(scenario);
    const provider = [
      process.execPath,
      PROVIDER_SCRIPT,
      scenario,
      record,
      ...(source === undefined ? [] : [source]),
    ];
    const args = [
      ...(host.args ?? []),
      ...(options.grant ? [host.grantFlag ?? "--grant", id] : []),
      "--",
      `${id}=${provider[0]}`,
      ...provider.slice(1),
    ];
    const child = spawn(host.command, args, {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const outTotal = { bytes: 0 };
    const errTotal = { bytes: 0 };
    child.stdout.on("data", (chunk: Buffer) => capped(out, chunk, outTotal));
    child.stderr.on("data", (chunk: Buffer) => capped(err, chunk, errTotal));
    let timedOut = false;
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        timedOut = true;
        if (child.pid !== undefined) killGroup(child.pid);
      }, options.timeoutMs);
      child.on("error", () => {
        clearTimeout(timer);
        resolve(null);
      });
      child.on("close", (exit) => {
        clearTimeout(timer);
        resolve(exit);
      });
    });
    const received = (await readFile(record, "utf8")).split("\n").filter((line) => line !== "");
    return {
      stdout: Buffer.concat(out).toString("utf8"),
      stderr: Buffer.concat(err).toString("utf8"),
      code,
      received,
      timedOut,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A fence line of composed context (ours or upstream's): it quotes a frame, it reports nothing. */
const FENCE_LINE = /^\s*(<<<(end )?frame\b|<\/?frame\b)/;

/**
 * Whether a line of the host's output names the scenario's provider together
 * with a word matching `why` (a loud report); fence lines and lines quoting
 * frame content do not count.
 */
function reported(run: HostRun, scenario: HostScenario, why: RegExp): boolean {
  const id = providerIdOf(scenario);
  return `${run.stdout}\n${run.stderr}`
    .split("\n")
    .some(
      (line) =>
        line.includes(id) &&
        !line.includes(markerOf(scenario)) &&
        !FENCE_LINE.test(line) &&
        why.test(line),
    );
}

/** The spans of composed text fenced as quoted data: `@ocp/host`'s fence, or upstream's `<frame …>`. */
export function cgpFencedSpans(text: string): { start: number; end: number }[] {
  const ours = ocpHostFencedSpans(text);
  if (ours.length > 0) return ours;
  const spans: { start: number; end: number }[] = [];
  const opener = /^<frame\b[^>\n]*>\n?/gm;
  for (let match = opener.exec(text); match !== null; match = opener.exec(text)) {
    const start = match.index + match[0].length;
    const end = text.indexOf("</frame>", start);
    if (end === -1) break;
    spans.push({ start, end });
    opener.lastIndex = end + "</frame>".length;
  }
  return spans;
}

const queried = (run: HostRun) => run.received.filter((type) => type === "query").length;
const shows = (run: HostRun, scenario: HostScenario) => run.stdout.includes(markerOf(scenario));
const tail = (run: HostRun) =>
  run.timedOut
    ? "the host command timed out"
    : `exit ${run.code}; stderr ${excerpt(run.stderr.trim().split("\n").pop() ?? "")}`;

type Runner = (scenario: HostScenario, grant?: boolean, source?: string) => Promise<HostRun>;
const verdict = (name: CheckName, problems: string[], good: string): CheckResult =>
  problems.length === 0
    ? pass(name, good, "cgp-host")
    : fail(name, problems.join("; "), "cgp-host");

/** A liar the host must drop with a report naming it, beside an honest twin it must keep. */
interface DropCase {
  readonly name: CheckName;
  readonly liar: HostScenario;
  readonly twin: HostScenario;
  /** What a report naming the liar's fault matches. */
  readonly names: RegExp;
  /** The finding when the liar's frames were composed. */
  readonly composed: string;
  /** The finding when the liar's frames vanished unreported. */
  readonly unreported: string;
  readonly good: string;
}

async function dropsLiarKeepsTwin(run: Runner, drop: DropCase): Promise<CheckResult> {
  const [liar, honest] = await Promise.all([run(drop.liar), run(drop.twin)]);
  const problems: string[] = [];
  if (shows(liar, drop.liar)) problems.push(drop.composed);
  else if (!reported(liar, drop.liar, drop.names)) problems.push(drop.unreported);
  if (!shows(honest, drop.twin))
    problems.push(`the ${drop.twin} twin's frame is missing (${tail(honest)})`);
  return verdict(drop.name, problems, drop.good);
}

const budgetDrop = (run: Runner) =>
  dropsLiarKeepsTwin(run, {
    name: "host-budget-drop",
    liar: "over-budget",
    twin: "within-budget",
    names: /budget|max_tokens|B1|B2|token/i,
    composed: "B2: frames summing over max_tokens reached the composed output",
    unreported: "B2: the over-budget provider's frames vanished without a report naming it",
    good: "dropped an over-budget provider with a report naming it; kept its within-budget twin",
  });

const frameLimit = (run: Runner) =>
  dropsLiarKeepsTwin(run, {
    name: "host-frame-limit",
    liar: "flood",
    twin: "within-cap",
    names: /max_frames|B4|frames|flood|exceed/i,
    composed:
      "B4: frames of a provider returning more than max_frames reached the composed output (trimmed, not dropped)",
    unreported: "B4: the flooding provider's frames vanished without a report naming it",
    good: "dropped a provider returning max_frames + 4 frames with a report; kept its twin",
  });

/** A provider the host must not query before consent, and must query and compose after it. */
interface GateCase {
  readonly name: CheckName;
  readonly scenario: HostScenario;
  /** The requirement a provider still missing after consent breaks. */
  readonly rule: string;
  /** Who received a payload before consent, as a finding's subject. */
  readonly unconsented: string;
  /** Further findings on the run before consent. */
  readonly before: (run: HostRun) => string[];
  readonly good: string;
}

async function gatedUntilConsent(run: Runner, gate: GateCase): Promise<CheckResult> {
  const before = await run(gate.scenario);
  const after = await run(gate.scenario, true);
  const problems: string[] = [];
  if (queried(before) > 0)
    problems.push(`${gate.unconsented} received ${queried(before)} query payload(s)`);
  problems.push(...gate.before(before));
  if (queried(after) === 0 || !shows(after, gate.scenario))
    problems.push(
      `${gate.rule}: after consent the ${gate.scenario} provider was still not queried and composed (${tail(after)})`,
    );
  return verdict(gate.name, problems, gate.good);
}

const consentGate = (run: Runner) =>
  gatedUntilConsent(run, {
    name: "host-consent-gate",
    scenario: "egress",
    rule: "C1",
    unconsented: "C2: an egress provider without consent",
    before: (before) =>
      shows(before, "egress") ? ["C1: frames of an unconsented egress provider were composed"] : [],
    good: "sent no query to an unconsented egress provider; after consent queried it and composed its frame",
  });

const scopeReceipt = (run: Runner) =>
  gatedUntilConsent(run, {
    name: "host-scope-receipt",
    scenario: "scoped",
    rule: "C6",
    unconsented: "C6: a provider declaring third-party-model without a receipt",
    before: (before) =>
      `${before.stdout}\n${before.stderr}`.includes("third-party-model")
        ? []
        : ["C6: the refusal does not name the unreceipted scope third-party-model"],
    good: "refused an unreceipted off-machine scope, naming third-party-model, with no payload sent; after consent queried it",
  });

async function provenanceBytes(run: Runner): Promise<CheckResult> {
  const [honest, tampered] = await Promise.all([
    run("source-match", false, "source.txt"),
    run("source-altered", false, "source.txt"),
  ]);
  const problems: string[] = [];
  if (!shows(honest, "source-match"))
    problems.push(
      `a frame whose file digest matches the source bytes is missing (${tail(honest)})`,
    );
  if (
    shows(tampered, "source-altered") &&
    !reported(tampered, "source-altered", /mismatch|does not match|F5/i)
  )
    problems.push(
      "F5: a frame whose file digest does not match the re-read source bytes was composed unflagged",
    );
  return verdict(
    "host-provenance-bytes",
    problems,
    "composed the frame whose sha256 matches the source bytes; caught the tampered digest",
  );
}

async function contentQuoting(run: Runner): Promise<CheckResult> {
  const composed = await run("injection");
  const text = composed.stdout;
  const spans = cgpFencedSpans(text);
  const inside = (needle: string) => {
    const at = text.indexOf(needle);
    return at !== -1 && spans.some((span) => at >= span.start && at + needle.length <= span.end);
  };
  const problems: string[] = [];
  if (!text.includes(INJECTION))
    problems.push(`R3: the frame content is not in the composed output (${tail(composed)})`);
  else {
    if (!inside(INJECTION)) problems.push("R3: the injection sentence is not inside a fence");
    if (!inside(FORGED)) problems.push("R3: text after a forged fence close escaped its fence");
    if (!inside(BENIGN)) problems.push("R3: benign content is not fenced alike");
  }
  return verdict(
    "host-content-quoting",
    problems,
    `hostile content (an injection, forged fence closes and opens) stayed inside its fence; benign content fenced alike; ${spans.length} span(s)`,
  );
}

/**
 * CGP's host scenarios (B2, B4, C1/C2, C6, F5 bytes, R3) run over the wire
 * against any host command, each adversarial and discriminating (the host
 * must catch the liar and accept its honest twin). Never throws for anything
 * the host does.
 */
export async function runCgpHostConformance(host: CgpHostCommand): Promise<ConformanceReport> {
  const timeoutMs = positiveBound("runTimeoutMs", host.runTimeoutMs, HOST_RUN_TIMEOUT_MS);
  const run: Runner = (scenario, grant = false, source) =>
    runHost(host, scenario, { grant, timeoutMs, ...(source === undefined ? {} : { source }) });
  const runs: [CheckName, () => Promise<CheckResult>][] = [
    ["host-budget-drop", () => budgetDrop(run)],
    ["host-frame-limit", () => frameLimit(run)],
    ["host-consent-gate", () => consentGate(run)],
    ["host-scope-receipt", () => scopeReceipt(run)],
    ["host-provenance-bytes", () => provenanceBytes(run)],
    ["host-content-quoting", () => contentQuoting(run)],
  ];
  const checks: CheckResult[] = [];
  for (const [name, check] of runs) {
    try {
      checks.push(await check());
    } catch (error) {
      checks.push(
        fail(
          name,
          `the harness could not complete the check: ${(error as Error).message}`,
          "cgp-host",
        ),
      );
    }
  }
  const ordered = CGP_HOST_CHECK_SPECS.map(
    (spec) => checks.find((check) => check.name === spec.name)!,
  );
  return {
    target: `host: ${host.name ?? [host.command, ...(host.args ?? [])].join(" ")}`,
    transport: "host",
    family: "contextgraph/1",
    strict: false,
    checks: ordered,
    conformant: isConformant(ordered, false),
  };
}

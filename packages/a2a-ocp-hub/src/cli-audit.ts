/**
 * `ocp-hub audit`: prints a hub's §3 audit log from its SQLite file, oldest
 * first, one entry a line (`--json`: one JSON object a line), every field
 * escaped so that nothing a sender chose can move the cursor, colour the
 * terminal or start a line of its own. `--verify` walks the hash chain
 * instead. Read-only: it opens the file for reading and never writes or
 * prunes. Exit codes: 0, 1 when the file cannot be read, 2 for a usage
 * error, 3 when `--verify` finds the chain broken.
 */
import { parseArgs } from "node:util";
import type { AuditEntry } from "@ocp/a2a-ocp-messaging";
import { AUDIT_EVENTS, AUDIT_QUERY_CAP } from "@ocp/a2a-ocp-messaging/internal";
import type { ChainVerdict } from "./audit-chain.js";
import { SqliteAuditLog } from "./audit-sqlite.js";
import { DEFAULT_HUB_DB_PATH } from "./options.js";

export const AUDIT_HELP = `Usage: ocp-hub audit [options]

Prints the hub's audit log (what it accepted, refused with the reason,
delivered and let expire), oldest first, control characters and spaces
in ids, types and agents shown escaped (\\n, \\x1b, \\x20). Read-only.

Options:
  --db FILE        the hub's SQLite file (default ${DEFAULT_HUB_DB_PATH})
  --agent URI      only entries sent by or addressed to this agent
  --since WHEN     only entries from WHEN on: a duration back from now
                   (30s, 10m, 2h, 7d) or an ISO 8601 time
  --event KIND     only accepted, refused, delivered or expired
  --limit N        at most N entries (default and cap ${AUDIT_QUERY_CAP})
  --json           one JSON object a line
  --verify         check the hash chain instead of printing: exit 0 with
                   the head (seq and hash: keep it to detect a later
                   truncation), or 3 naming the first broken entry
  -h, --help       show this help
`;

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30s`, `10m`, `2h`, `7d`, `500ms` → ms; `undefined` when it is not one. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(text.trim());
  if (match === null) return undefined;
  const ms = Number(match[1]) * UNITS[match[2]!]!;
  return ms > 0 && Number.isSafeInteger(ms) ? ms : undefined;
}

/** `--since`: a duration back from `now`, or an ISO 8601 time; `undefined` when it is neither. */
export function parseSince(text: string, now: number): number | undefined {
  const duration = parseDuration(text);
  if (duration !== undefined) return now - duration;
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(text))
    return undefined;
  const at = Date.parse(text);
  return Number.isFinite(at) ? at : undefined;
}

/**
 * Characters never printed as they are: C0 and C1 controls (ANSI escapes
 * start with one), DEL, the Unicode line and paragraph separators and the
 * bidirectional overrides (which reorder what a terminal shows), and the
 * backslash itself (so an escape in the output is never the sender's).
 */
const UNSAFE = /[\\\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
/** In ids, types and agents, also the separators of the line: space and comma. */
const UNSAFE_TOKEN = /[\\\u0000-\u0020,\u007f-\u009f\u00a0\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeChar(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** `text` with every control character shown escaped (`\n`, `\x1b`, `\u2028`, `\\`). */
export function escapeText(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** A token (id, type, agent): as {@link escapeText}, and spaces and commas too. */
export function escapeToken(text: string): string {
  return text.replace(UNSAFE_TOKEN, escapeChar);
}

/** One entry as one line of text: every field escaped, so nothing in it can forge another. */
export function formatEntry(e: AuditEntry): string {
  const token = (text: string | undefined) =>
    text === undefined || text === "" ? "-" : escapeToken(text);
  const parts = [new Date(e.at).toISOString(), e.event.padEnd(9), token(e.id), token(e.type)];
  parts.push(`from ${token(e.from)}`, `to ${e.to.length === 0 ? "-" : e.to.map(token).join(",")}`);
  if (e.code !== undefined) parts.push(`${token(e.code)}: ${escapeText(e.reason ?? "")}`);
  return parts.join("  ");
}

/** The verdict of `--verify` as one line. */
export function formatVerdict(verdict: ChainVerdict): string {
  return verdict.ok
    ? `audit log verified: ${verdict.entries} entries (${verdict.firstSeq}–${verdict.head.seq}), head ${verdict.head.seq} ${verdict.head.hash}`
    : `audit log broken at entry ${verdict.seq}: ${verdict.reason}`;
}

/** Bad usage: one line naming the problem and a hint, exit 2. */
function usage(message: string): never {
  const line = message.replace(/\s*\n\s*/g, " ");
  process.stderr.write(`ocp-hub audit: ${line}\nrun "ocp-hub audit --help" for usage\n`);
  process.exit(2);
}

/** Runs `ocp-hub audit` with the arguments after `audit`. */
export async function runAudit(args: string[]): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        db: { type: "string" },
        agent: { type: "string" },
        since: { type: "string" },
        event: { type: "string" },
        limit: { type: "string" },
        json: { type: "boolean" },
        verify: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    usage(error instanceof Error ? error.message : String(error));
  }
  if (values["help"] === true) {
    process.stdout.write(AUDIT_HELP);
    return;
  }
  const str = (key: string) =>
    typeof values[key] === "string" ? (values[key] as string) : undefined;
  const sinceText = str("since");
  const since = sinceText === undefined ? undefined : parseSince(sinceText, Date.now());
  if (sinceText !== undefined && since === undefined)
    usage(
      `--since takes a duration (30s, 10m, 2h, 7d) or an ISO 8601 time, not ${JSON.stringify(sinceText)}`,
    );
  const event = str("event");
  if (event !== undefined && !(AUDIT_EVENTS as readonly string[]).includes(event))
    usage(`--event takes ${AUDIT_EVENTS.join(", ")}, not ${JSON.stringify(event)}`);
  const limitText = str("limit");
  const limit = limitText === undefined ? undefined : Number(limitText);
  if (limit !== undefined && !(Number.isSafeInteger(limit) && limit > 0))
    usage(`--limit takes a positive integer, not ${JSON.stringify(limitText)}`);
  const agent = str("agent");
  if (agent !== undefined && !agent.startsWith("a2a://"))
    usage(`--agent takes an a2a:// agent URI, not ${JSON.stringify(agent)}`);
  const verify = values["verify"] === true;
  if (verify && [agent, sinceText, event, limitText, values["json"]].some((v) => v !== undefined))
    usage("--verify checks the whole log: it takes only --db");
  const db = str("db") ?? DEFAULT_HUB_DB_PATH;
  let log: SqliteAuditLog;
  try {
    log = new SqliteAuditLog({ path: db, readonly: true });
  } catch (error) {
    process.stderr.write(
      `ocp-hub audit: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  }
  if (verify) {
    const verdict = log.verify();
    await log.close();
    process.stdout.write(`${formatVerdict(verdict)}\n`);
    if (!verdict.ok) process.exitCode = 3;
    return;
  }
  const entries = await log.query({
    agent,
    since,
    event: event as AuditEntry["event"] | undefined,
    limit,
  });
  await log.close();
  const json = values["json"] === true;
  const out = entries.map((e) => (json ? JSON.stringify(e) : formatEntry(e)));
  if (out.length > 0) process.stdout.write(`${out.join("\n")}\n`);
}

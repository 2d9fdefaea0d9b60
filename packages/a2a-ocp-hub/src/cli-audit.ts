/**
 * `ocp-hub audit`: prints a hub's §3 audit log from its SQLite file, oldest
 * first, one entry a line (`--json`: one JSON object a line). Read-only: it
 * opens the file for reading and never writes or prunes. Exit codes: 0, 1
 * when the file cannot be read, 2 for a usage error.
 */
import { parseArgs } from "node:util";
import { AUDIT_EVENTS, AUDIT_QUERY_CAP, type AuditEntry } from "@ocp/a2a-ocp-messaging";
import { SqliteAuditLog } from "./audit-sqlite.js";
import { DEFAULT_HUB_DB_PATH } from "./options.js";

export const AUDIT_HELP = `Usage: ocp-hub audit [options]

Prints the hub's audit log (what it accepted, refused with the reason,
delivered and let expire), oldest first. Read-only.

Options:
  --db FILE        the hub's SQLite file (default ${DEFAULT_HUB_DB_PATH})
  --agent URI      only entries sent by or addressed to this agent
  --since WHEN     only entries from WHEN on: a duration back from now
                   (30s, 10m, 2h, 7d) or an ISO 8601 time
  --event KIND     only accepted, refused, delivered or expired
  --limit N        at most N entries (default and cap ${AUDIT_QUERY_CAP})
  --json           one JSON object a line
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

/** One entry as a line of text. */
export function formatEntry(e: AuditEntry): string {
  const parts = [new Date(e.at).toISOString(), e.event.padEnd(9), e.id ?? "-", e.type ?? "-"];
  parts.push(`from ${e.from || "-"}`, `to ${e.to.length === 0 ? "-" : e.to.join(",")}`);
  if (e.code !== undefined) parts.push(`${e.code}: ${e.reason ?? ""}`);
  return parts.join("  ");
}

function usage(message: string): never {
  process.stderr.write(`ocp-hub audit: ${message}\n${AUDIT_HELP}`);
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

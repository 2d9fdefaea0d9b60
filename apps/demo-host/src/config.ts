import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { describeIssues, errorFactory } from "@ocp/types";
import { z } from "zod";

/** The codes the demo host raises: a config it cannot read or accept, or a bad command line. */
export type DemoHostErrorCode = "config_unreadable" | "config_invalid" | "usage";

const demoHostError = errorFactory<DemoHostErrorCode>();

/** The protocol families a provider may be offered, by their flag names. */
export const FAMILY_NAMES = { ocp: "ocp/1", contextgraph: "contextgraph/1" } as const;
const FamilySchema = z.enum(["ocp", "contextgraph"]);
/** `"ocp"`, `"contextgraph"`, or a list tried in order (a provider refusing one by name gets the next). */
const FamiliesSchema = z.union([FamilySchema, z.array(FamilySchema).min(1)]).optional();

const IdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][\w.-]{0,63}$/, "ids are 1-64 letters, digits, '.', '_' or '-'");

/** A provider spawned as a child and spoken to over NDJSON stdio. */
const StdioEntrySchema = z.object({
  id: IdSchema,
  stdio: z.object({
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    cwd: z.string().optional(),
    /** Variables passed to the child besides PATH and HOME. */
    env: z.record(z.string(), z.string()).default({}),
  }),
  timeoutMs: z.number().int().positive().optional(),
  family: FamiliesSchema,
});

/** A provider reached over HTTP: always egress (C4). */
const HttpEntrySchema = z.object({
  id: IdSchema,
  http: z.object({
    url: z.string().url(),
    /** Name of the environment variable holding the bearer token; never the token itself. */
    tokenEnv: z.string().optional(),
  }),
  timeoutMs: z.number().int().positive().optional(),
  family: FamiliesSchema,
});

export const ProviderEntrySchema = z.union([StdioEntrySchema, HttpEntrySchema]);
export type ProviderEntry = z.infer<typeof ProviderEntrySchema>;

/** The shape of `ocp.config.json`. */
export const ConfigSchema = z.object({
  providers: z.array(ProviderEntrySchema).default([]),
  /** Where consent receipts are kept, relative to the config file. */
  consentFile: z.string().optional(),
  /** Where contextgraph/1 scope receipts are kept (C6), relative to the config file. */
  receiptsFile: z.string().optional(),
  /** Families offered to providers that name none (default "ocp"). */
  family: FamiliesSchema,
  /** Per-provider timeout of a query. */
  timeoutMs: z.number().int().positive().optional(),
});
export type Config = z.infer<typeof ConfigSchema>;

/** Loads and validates a config file; relative paths in it are resolved against its folder. */
export async function loadConfig(path: string): Promise<Config> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    throw demoHostError(
      "config_unreadable",
      `cannot read config ${path}: ${(cause as Error).message}`,
      { cause },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw demoHostError(
      "config_invalid",
      `config ${path} is not JSON: ${(cause as Error).message}`,
      { cause },
    );
  }
  const parsed = ConfigSchema.safeParse(json);
  if (!parsed.success) {
    throw demoHostError("config_invalid", `config ${path}: ${describeIssues(parsed.error)}`);
  }
  const base = dirname(resolve(path));
  return {
    ...parsed.data,
    consentFile:
      parsed.data.consentFile === undefined ? undefined : resolve(base, parsed.data.consentFile),
    receiptsFile:
      parsed.data.receiptsFile === undefined ? undefined : resolve(base, parsed.data.receiptsFile),
    providers: parsed.data.providers.map((entry) =>
      "stdio" in entry && entry.stdio.cwd !== undefined
        ? { ...entry, stdio: { ...entry.stdio, cwd: resolve(base, entry.stdio.cwd) } }
        : entry,
    ),
  };
}

/**
 * Splits a command line the way a POSIX shell splits words, without running
 * anything: whitespace separates words, `'…'` keeps everything literally,
 * `"…"` keeps everything but `\"` and `\\`, and a backslash outside quotes
 * escapes the next character. So `node "/my docs/cli.js"` is two words.
 */
export function splitCommand(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "'" || c === '"') {
      const close = c === "'" ? text.indexOf("'", i + 1) : closingDoubleQuote(text, i + 1);
      if (close === -1) throw demoHostError("usage", `unterminated ${c} in "${text}"`);
      const inner = text.slice(i + 1, close);
      word += c === "'" ? inner : inner.replace(/\\(["\\])/g, "$1");
      inWord = true;
      i = close;
    } else if (c === "\\") {
      if (i + 1 >= text.length) throw demoHostError("usage", `trailing backslash in "${text}"`);
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

function closingDoubleQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

function validEntry(flag: string, value: string, candidate: unknown): ProviderEntry {
  const parsed = ProviderEntrySchema.safeParse(candidate);
  if (!parsed.success)
    throw demoHostError("usage", `${flag} ${value}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

function splitId(flag: string, value: string, what: string): [string, string] {
  const eq = value.indexOf("=");
  if (eq <= 0 || eq === value.length - 1) {
    throw demoHostError("usage", `${flag} takes ID=${what}, not "${value}"`);
  }
  return [value.slice(0, eq), value.slice(eq + 1)];
}

/**
 * `ID=COMMAND ARG…` from `--stdio` (split into words like a shell does, so
 * quote a path with spaces: `docs=node "/my docs/cli.js"`; see
 * {@link splitCommand}) or `ID=URL` from `--http`.
 */
export function parseProviderFlag(kind: "stdio" | "http", value: string): ProviderEntry {
  const [id, rest] = splitId(`--${kind}`, value, kind === "stdio" ? "COMMAND [ARG…]" : "URL");
  if (kind === "http") return validEntry("--http", value, { id, http: { url: rest.trim() } });
  const [command, ...args] = splitCommand(rest);
  if (command === undefined) {
    throw demoHostError("usage", `--stdio takes ID=COMMAND [ARG…], not "${value}"`);
  }
  return validEntry("--stdio", value, { id, stdio: { command, args } });
}

/**
 * The provider after `--`: `ID=COMMAND` then its arguments, each taken
 * verbatim (no splitting, no quoting), so any path works.
 */
export function parseStdioArgv(argv: readonly string[]): ProviderEntry {
  const [first, ...args] = argv;
  const shown = argv.join(" ");
  if (first === undefined) throw demoHostError("usage", "-- must be followed by ID=COMMAND [ARG…]");
  const [id, command] = splitId("--", first, "COMMAND [ARG…]");
  return validEntry("--", shown, { id, stdio: { command, args } });
}

/**
 * `--family` / a config `family`: `ocp`, `contextgraph`, or a comma list
 * tried in order, as the host's family names.
 */
export function parseFamilies(
  value: string | readonly string[] | undefined,
  where: string,
): ("ocp/1" | "contextgraph/1")[] | undefined {
  if (value === undefined) return undefined;
  const names = typeof value === "string" ? value.split(",").map((v) => v.trim()) : [...value];
  return names.map((name) => {
    if (name !== "ocp" && name !== "contextgraph") {
      throw demoHostError("usage", `${where}: "${name}" is not ocp or contextgraph`);
    }
    return FAMILY_NAMES[name];
  });
}

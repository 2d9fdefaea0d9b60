import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { describeIssues, OcpError } from "@ocp/types";
import { z } from "zod";

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
});

export const ProviderEntrySchema = z.union([StdioEntrySchema, HttpEntrySchema]);
export type ProviderEntry = z.infer<typeof ProviderEntrySchema>;

/** The shape of `ocp.config.json`. */
export const ConfigSchema = z.object({
  providers: z.array(ProviderEntrySchema).default([]),
  /** Where consent receipts are kept, relative to the config file. */
  consentFile: z.string().optional(),
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
    throw new OcpError(
      "config_unreadable",
      `cannot read config ${path}: ${(cause as Error).message}`,
      { cause },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new OcpError(
      "config_invalid",
      `config ${path} is not JSON: ${(cause as Error).message}`,
      { cause },
    );
  }
  const parsed = ConfigSchema.safeParse(json);
  if (!parsed.success) {
    throw new OcpError("config_invalid", `config ${path}: ${describeIssues(parsed.error)}`);
  }
  const base = dirname(resolve(path));
  return {
    ...parsed.data,
    consentFile:
      parsed.data.consentFile === undefined ? undefined : resolve(base, parsed.data.consentFile),
    providers: parsed.data.providers.map((entry) =>
      "stdio" in entry && entry.stdio.cwd !== undefined
        ? { ...entry, stdio: { ...entry.stdio, cwd: resolve(base, entry.stdio.cwd) } }
        : entry,
    ),
  };
}

/**
 * `ID=COMMAND ARG…` from `--stdio` (split on spaces; use a config file for
 * arguments that contain spaces) or `ID=URL` from `--http`.
 */
export function parseProviderFlag(kind: "stdio" | "http", value: string): ProviderEntry {
  const eq = value.indexOf("=");
  if (eq <= 0 || eq === value.length - 1) {
    throw new OcpError(
      "usage",
      `--${kind} takes ID=${kind === "stdio" ? "COMMAND [ARG…]" : "URL"}, not "${value}"`,
    );
  }
  const id = value.slice(0, eq);
  const rest = value.slice(eq + 1).trim();
  const candidate =
    kind === "stdio"
      ? (() => {
          const [command, ...args] = rest.split(/\s+/);
          return { id, stdio: { command, args } };
        })()
      : { id, http: { url: rest } };
  const parsed = ProviderEntrySchema.safeParse(candidate);
  if (!parsed.success)
    throw new OcpError("usage", `--${kind} ${value}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

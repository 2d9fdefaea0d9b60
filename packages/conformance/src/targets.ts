import type { ChildCommand } from "@ocp/transport-stdio/process";
import type { ContextProvider } from "@ocp/types";
import { HttpSession } from "./drivers/http.js";
import { InProcessSession } from "./drivers/in-process.js";
import { StdioSession } from "./drivers/stdio.js";
import type { Recorded, Session } from "./session.js";

/**
 * A provider child spoken to over NDJSON on its stdin/stdout, started in a
 * process group of its own with only PATH, HOME and `env` in its environment.
 */
export type StdioTarget = ChildCommand;

/** A provider reached by POSTing one envelope per request to `url`. */
export interface HttpTarget {
  readonly url: string;
  /** Extra request headers (e.g. authorization); never printed. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A provider object in this process. The suite may need several connections
 * (one per probe); give `create` to get a fresh provider for each, or
 * `provider` to share one.
 */
export type InProcessTarget =
  | { readonly provider: ContextProvider }
  | { readonly create: () => ContextProvider; readonly id?: string };

export type Target = StdioTarget | HttpTarget | InProcessTarget;

export type TransportKind = "stdio" | "http" | "in-process";

export function transportOf(target: Target): TransportKind {
  if ("command" in target) return "stdio";
  if ("url" in target) return "http";
  return "in-process";
}

/** One line naming the target, for the report header. */
export function describeTarget(target: Target): string {
  if ("command" in target) {
    return `stdio: ${[target.command, ...(target.args ?? [])].join(" ")}`;
  }
  if ("url" in target) return `http: ${target.url}`;
  return `in-process: ${"provider" in target ? target.provider.id : (target.id ?? "provider")}`;
}

/** Opens a fresh connection to the target. */
export function openSession(
  target: Target,
  label: string,
  record: (entry: Recorded) => void,
): Session {
  if ("command" in target) return new StdioSession(target, label, record);
  if ("url" in target) return new HttpSession(target, label, record);
  const provider = "provider" in target ? target.provider : target.create();
  return new InProcessSession(provider, label, record);
}

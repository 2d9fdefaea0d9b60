/**
 * The federate file (`ocp-hub --federate FILE`): where this hub accepts hub
 * links, and the peer hubs it links with — each one's hub id and Ed25519
 * key (the only hub that may hold that side of the link), where to dial it
 * (optional: a peer without `url` dials us), the agent id prefixes that are
 * its organisation's, and whether collective queries and events cross to it. Parsed
 * with a schema; a bad file is `invalid_option` naming the field.
 */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { hubError } from "../errors.js";
import { FEDERATION_MAX_PEERS } from "./limits.js";

const AGENT_URI = /^a2a:\/\/[^\s]+$/;
const BASE64_KEY = /^[A-Za-z0-9+/]{43}=$/;

export const FederationPeerSchema = z.strictObject({
  /** The peer hub's a2a:// id (its `--identity`). */
  hubId: z.string().regex(AGENT_URI, "an a2a:// URI"),
  /** Its Ed25519 public key, base64 (32 bytes). */
  publicKey: z.string().regex(BASE64_KEY, "a base64 Ed25519 public key (44 characters)"),
  /** Where to dial it: `ws://` or `wss://`. Absent: this hub only accepts its link. */
  url: z
    .string()
    .regex(/^wss?:\/\/[^\s]+$/, "a ws:// or wss:// URL")
    .optional(),
  /** Agent id prefixes of its organisation: it may vouch only for ids that start with one. */
  agents: z.array(z.string().regex(AGENT_URI, "an a2a:// prefix")).min(1).max(64),
  /** Collective queries cross to and from it (opt-in). */
  queries: z.boolean().default(false),
  /** Event subscriptions of its agents are applied here, and the notifications of matching events cross to them (opt-in). */
  events: z.boolean().default(false),
});

export const FederateFileSchema = z.strictObject({
  /** Where this hub accepts hub links; absent: it only dials. */
  listen: z
    .strictObject({
      host: z.string().min(1).default("127.0.0.1"),
      port: z.number().int().min(0).max(65_535),
    })
    .optional(),
  peers: z.array(FederationPeerSchema).min(1).max(FEDERATION_MAX_PEERS),
});

export type FederationPeer = z.infer<typeof FederationPeerSchema>;
export type FederationConfig = z.infer<typeof FederateFileSchema>;

/** Parses a federate file's JSON; throws `invalid_option` naming the first bad field. */
export function parseFederationConfig(
  value: unknown,
  source = "the federate file",
): FederationConfig {
  const parsed = FederateFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.map(String).join(".") || "(root)";
    throw hubError("invalid_option", `${source}: ${field}: ${issue.message}`, {
      details: { field },
    });
  }
  const config = parsed.data;
  if (config.listen === undefined) {
    const i = config.peers.findIndex((peer) => peer.url === undefined);
    if (i >= 0) {
      throw hubError(
        "invalid_option",
        `${source}: peers.${i}.url: without "listen" this hub only dials, so every peer needs a url`,
        { details: { field: `peers.${i}.url` } },
      );
    }
  }
  const ids = new Set<string>();
  const prefixes: Array<[string, string]> = [];
  for (const [i, peer] of config.peers.entries()) {
    if (ids.has(peer.hubId)) {
      throw hubError(
        "invalid_option",
        `${source}: peers.${i}.hubId: ${peer.hubId} is listed twice`,
        {
          details: { field: `peers.${i}.hubId` },
        },
      );
    }
    ids.add(peer.hubId);
    for (const prefix of peer.agents) {
      const clash = prefixes.find(([p]) => p.startsWith(prefix) || prefix.startsWith(p));
      if (clash !== undefined) {
        throw hubError(
          "invalid_option",
          `${source}: peers.${i}.agents: ${prefix} overlaps ${clash[0]} of ${clash[1]}`,
          { details: { field: `peers.${i}.agents` } },
        );
      }
      prefixes.push([prefix, peer.hubId]);
    }
  }
  return config;
}

/** Reads and parses a federate file. */
export async function loadFederationConfig(path: string): Promise<FederationConfig> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    throw hubError("invalid_option", `cannot read the federate file ${path}`, { cause });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw hubError("invalid_option", `${path}: not JSON`, { cause, details: { field: "(root)" } });
  }
  return parseFederationConfig(value, path);
}

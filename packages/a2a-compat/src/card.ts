/**
 * The A2A agent card of an OCP agent (§7.1), served at the A2A well-known
 * path. OCP support is declared twice, so that both kinds of reader find it:
 *
 * - the A2A way: an entry of `capabilities.extensions` with the URI
 *   {@link OCP_EXTENSION_URI} whose `params` are `{ version, features,
 *   endpoints, limits, workspace }` — what a plain A2A SDK keeps when it
 *   parses the card;
 * - the §7.1 way: `capabilities.protocols` (`["a2a", "a2a+ocp"]`) and
 *   `capabilities.ocp` with the same fields, plus the agent's `a2a://` URI in
 *   `id`.
 *
 * Cards from elsewhere are parsed with {@link AgentCardSchema} (loose: only
 * the fields read here are checked) and {@link ocpDeclarationOf} reads either
 * form.
 *
 * The card declares how callers authenticate (`securitySchemes`,
 * `securityRequirements`, see `./auth.ts`): signed requests by default.
 * Serve and publish it as {@link cardJson} gives it, the A2A JSON form.
 */
import { AgentCard, type AgentSkill } from "@a2a-js/sdk";
import { type OcpFeature, PROTOCOL, PROTOCOL_VERSION } from "@ocp/a2a-ocp-messaging";
import { isJsonObject, SEMVER_PATTERN, semverMajor } from "@ocp/a2a-ocp-messaging/internal";
import { AgentUriSchema, OcpFeatureSchema } from "@ocp/a2a-ocp-messaging/schemas";
import { z } from "zod";
import { type SecurityDeclaration, securityDeclarationOf, securityOf } from "./auth.js";
import { A2A_TASKS, type A2ATaskName, TASK_FEATURES } from "./tasks.js";

/** The A2A extension URI of OCP 1.x: stable for every 1.x version (the version is in `params`). */
export const OCP_EXTENSION_URI = "https://a2a-ocp.dev/extensions/ocp/v1";
/** §7.1 `protocols` of an OCP agent. */
export const OCP_PROTOCOLS: readonly string[] = ["a2a", PROTOCOL];

/** §7.1 `endpoints`. */
export const OcpEndpointsSchema = z.looseObject({
  websocket: z.string().optional(),
  http: z.string().optional(),
});
/** §7.1 `limits`. */
export const OcpLimitsSchema = z.looseObject({
  maxStreamBandwidth: z.number().int().min(0).optional(),
  maxSubscriptions: z.number().int().min(0).optional(),
  maxConcurrentQueries: z.number().int().min(0).optional(),
});
/** §7.1 `capabilities.ocp`, and the `params` of the OCP extension; `workspace` is ours (§7.3 filters on it). */
export const OcpDeclarationSchema = z.looseObject({
  version: z.string().regex(SEMVER_PATTERN),
  features: z.array(z.string()),
  endpoints: OcpEndpointsSchema.default({}),
  limits: OcpLimitsSchema.optional(),
  workspace: z.string().optional(),
});
export type OcpDeclaration = z.infer<typeof OcpDeclarationSchema>;

const InterfaceSchema = z.looseObject({
  url: z.string(),
  protocolBinding: z.string(),
  protocolVersion: z.string().optional(),
});
const ExtensionSchema = z.looseObject({ uri: z.string(), params: z.unknown().optional() });

/** What is read from any A2A card (plain or OCP): unknown fields are kept. */
export const AgentCardSchema = z.looseObject({
  name: z.string(),
  id: AgentUriSchema.optional(),
  supportedInterfaces: z.array(InterfaceSchema).default([]),
  capabilities: z
    .looseObject({
      extensions: z.array(ExtensionSchema).default([]),
      protocols: z.array(z.string()).optional(),
      ocp: z.unknown().optional(),
    })
    .default({ extensions: [] }),
  skills: z.array(z.looseObject({ id: z.string() })).default([]),
});
export type ParsedAgentCard = z.infer<typeof AgentCardSchema>;

/** The card an OCP agent serves: an SDK `AgentCard` with the §7.1 fields. */
export type OcpAgentCard = AgentCard & {
  id: string;
  capabilities: NonNullable<AgentCard["capabilities"]> & {
    protocols: string[];
    ocp: OcpDeclaration;
  };
};

export interface AgentCardOptions {
  /** The agent's `a2a://` URI. */
  id: string;
  name: string;
  description?: string;
  /** The A2A JSON-RPC endpoint URL (first of `supportedInterfaces`). */
  url: string;
  /** The features this agent offers (§7.1); every OCP feature by default. */
  features?: readonly OcpFeature[];
  /** §7.1 endpoints, e.g. the hub's `ws://` URL the agent is reachable on. */
  endpoints?: { websocket?: string; http?: string };
  limits?: z.infer<typeof OcpLimitsSchema>;
  workspace?: string;
  /** The agent's own version (the card's `version`); "1.0.0" by default. */
  version?: string;
  provider?: { organization: string; url: string };
  /** How callers authenticate; signed requests only by default (match the server's `auth`). */
  security?: SecurityDeclaration;
}

const SKILL_TEXT: Record<A2ATaskName, [name: string, description: string]> = {
  receive_knowledge: [
    "Receive knowledge",
    "Takes knowledge nodes (ocp.knowledge.stream payload) into the agent's graph and shares them with its team.",
  ],
  search_and_respond: [
    "Search and respond",
    "Answers a query (ocp.collective.query payload) with findings from the agent's knowledge graph.",
  ],
  vote_on_proposal: ["Vote on a proposal", "Votes on a proposal (ocp.consensus.propose payload)."],
  share_awareness: [
    "Share awareness",
    "Records the caller's status (ocp.awareness.beacon payload) in the agent's presence table.",
  ],
  query_awareness: ["Query awareness", "Tells who is doing what (ocp.awareness.query payload)."],
  publish_event: [
    "Publish an event",
    "Publishes an event (ocp.event.publish payload) to the agent's team.",
  ],
};

/** The A2A skills of the tasks an agent with `features` answers. */
export function skillsFor(features: readonly OcpFeature[]): AgentSkill[] {
  return Object.values(A2A_TASKS)
    .filter((task) => features.includes(TASK_FEATURES[task]))
    .map((task) => ({
      id: task,
      name: SKILL_TEXT[task][0],
      description: SKILL_TEXT[task][1],
      tags: ["ocp", TASK_FEATURES[task]],
      examples: [],
      inputModes: ["application/json"],
      outputModes: ["application/json"],
      securityRequirements: [],
    }));
}

/** Builds the card of an OCP agent. */
export function buildAgentCard(options: AgentCardOptions): OcpAgentCard {
  const features = [...(options.features ?? OcpFeatureSchema.options)];
  const declaration: OcpDeclaration = {
    version: PROTOCOL_VERSION,
    features,
    endpoints: { ...options.endpoints, http: options.endpoints?.http ?? options.url },
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
  };
  return {
    id: options.id,
    name: options.name,
    description: options.description ?? `OCP agent ${options.id}`,
    supportedInterfaces: [
      { url: options.url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
    ],
    provider: options.provider,
    version: options.version ?? "1.0.0",
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [
        {
          uri: OCP_EXTENSION_URI,
          description: `Organizational Consciousness Protocol (${PROTOCOL} ${PROTOCOL_VERSION}): knowledge streaming, collective queries, consensus, awareness and events; its operations are also A2A tasks.`,
          required: false,
          params: declaration,
        },
      ],
      protocols: [...OCP_PROTOCOLS],
      ocp: declaration,
    },
    ...securityOf(options.security ?? securityDeclarationOf(undefined)),
    defaultInputModes: ["application/json", "text/plain"],
    defaultOutputModes: ["application/json", "text/plain"],
    skills: skillsFor(features),
    signatures: [],
  };
}

/**
 * The card as JSON goes on the wire: the SDK's in-memory form but for
 * `securitySchemes` and `securityRequirements`, which are written in the A2A
 * JSON form (`{ httpAuthSecurityScheme: {...} }`) that SDK clients read.
 */
export function cardJson(card: AgentCard): Record<string, unknown> {
  const encoded = AgentCard.toJSON(card);
  const json = isJsonObject(encoded) ? encoded : {};
  return {
    ...card,
    securitySchemes: json["securitySchemes"] ?? {},
    securityRequirements: json["securityRequirements"] ?? [],
  };
}

/**
 * The OCP declaration of a parsed card, or `undefined` when it does not speak
 * `a2a+ocp` of a compatible major version: `capabilities.ocp` when
 * `protocols` lists `a2a+ocp`, else the OCP extension's `params`.
 */
export function ocpDeclarationOf(card: ParsedAgentCard): OcpDeclaration | undefined {
  const candidates: unknown[] = [];
  if (card.capabilities.protocols?.includes(PROTOCOL) === true)
    candidates.push(card.capabilities.ocp);
  for (const extension of card.capabilities.extensions) {
    if (extension.uri === OCP_EXTENSION_URI) candidates.push(extension.params);
  }
  for (const candidate of candidates) {
    const parsed = OcpDeclarationSchema.safeParse(candidate);
    if (parsed.success && semverMajor(parsed.data.version) === semverMajor(PROTOCOL_VERSION))
      return parsed.data;
  }
  return undefined;
}

/** The known OCP features a declaration lists (unknown names from a newer minor are ignored). */
export function declaredFeatures(declaration: OcpDeclaration): OcpFeature[] {
  return declaration.features.filter((f): f is OcpFeature => OcpFeatureSchema.safeParse(f).success);
}

/** The protocols a card speaks: §7.1 `protocols` (or `["a2a"]`), with `a2a+ocp` only when a valid declaration backs it. */
export function protocolsOf(card: ParsedAgentCard): string[] {
  const declared = (card.capabilities.protocols ?? ["a2a"]).filter((p) => p !== PROTOCOL);
  return ocpDeclarationOf(card) === undefined ? declared : [...declared, PROTOCOL];
}

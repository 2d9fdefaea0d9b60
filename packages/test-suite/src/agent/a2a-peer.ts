/**
 * The suite as a plain A2A peer (§9.1, §9.2), on the official A2A SDK
 * (`@a2a-js/sdk`) and nothing of OCP: it finds the agent's A2A endpoint,
 * fetches its agent card with the SDK's resolver, and sends §9.2 tasks
 * (`{ task, input, from? }` in one JSON data part) with the SDK's JSON-RPC
 * client, anonymously or with a signed request token (the
 * `a2a-ocp-signed-request` scheme, when the card declares it).
 */
import { createHash, randomUUID } from "node:crypto";
import { type AgentCard, type Message, Role, type Task, TaskState } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { JsonRpcTransportError } from "@a2a-js/sdk/errors";
import type { AgentIdentity } from "@ocp/a2a-ocp-messaging";
import { isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";

/**
 * An A2A message with one JSON data part, as any A2A SDK peer writes it
 * (built on the SDK's types only): what the suite sends as a client and
 * what its fixture agent answers.
 */
export function dataMessage(
  role: Role,
  contextId: string,
  taskId: string,
  value: Record<string, unknown>,
): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role,
    parts: [
      {
        content: { $case: "data", value },
        metadata: undefined,
        filename: "",
        mediaType: "application/json",
      },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The URI of the a2a+ocp extension in an agent card's `capabilities.extensions`. */
export const OCP_EXTENSION_URI = "https://a2a-ocp.dev/extensions/ocp/v1";
/** The card's name of the signed-request scheme (a compact EdDSA JWS per request). */
export const SIGNED_REQUEST_SCHEME = "a2a-ocp-signed-request";
const REQUEST_TOKEN_TYPE = "a2a-ocp-request+jwt";
const TOKEN_LIFETIME_SECONDS = 60;

const record = (value: unknown): Record<string, unknown> | undefined =>
  isJsonObject(value) ? value : undefined;

/**
 * The base URL of the A2A endpoint a signed profile declares (§7.1, §7.3):
 * the origin of its `agentCard`'s JSON-RPC interface (`supportedInterfaces`,
 * else `url`, else the OCP declaration's `endpoints.http`), where the card is
 * served at the well-known path. `undefined` when it declares none.
 */
export function a2aBaseOf(profile: Record<string, unknown> | undefined): string | undefined {
  const card = record(profile?.["agentCard"]);
  if (card === undefined) return undefined;
  const interfaces = Array.isArray(card["supportedInterfaces"]) ? card["supportedInterfaces"] : [];
  const capabilities = record(card["capabilities"]);
  const candidates = [
    ...interfaces.map((i) => record(i)?.["url"]),
    card["url"],
    record(record(capabilities?.["ocp"])?.["endpoints"])?.["http"],
  ];
  for (const candidate of candidates) {
    if (typeof candidate !== "string") continue;
    try {
      const url = new URL(candidate);
      if (url.protocol === "http:" || url.protocol === "https:") return url.origin;
    } catch {}
  }
  return undefined;
}

/** A `fetch` whose every request is aborted after `timeoutMs` (an endpoint that never answers). */
export function timedFetch(timeoutMs: number, base: typeof fetch = globalThis.fetch): typeof fetch {
  return (input, init) => base(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
}

/** Fetches the card at `base` with the SDK's resolver (the well-known path), within `timeoutMs`. */
export function fetchCard(base: string, timeoutMs: number): Promise<AgentCard> {
  return new DefaultAgentCardResolver({ fetchImpl: timedFetch(timeoutMs) }).resolve(base);
}

/** Whether a card (as the SDK reads it) declares a2a+ocp: the OCP extension, or §7.1 `protocols`. */
export function declaresOcp(card: AgentCard): boolean {
  const protocols = record(card.capabilities)?.["protocols"];
  return (
    (card.capabilities?.extensions ?? []).some((e) => e.uri === OCP_EXTENSION_URI) ||
    (Array.isArray(protocols) && protocols.includes("a2a+ocp"))
  );
}

/** Whether the card lets a caller in without credentials (no requirement, or an empty one). */
export function allowsAnonymous(card: AgentCard): boolean {
  const requirements = card.securityRequirements ?? [];
  return (
    requirements.length === 0 || requirements.some((r) => Object.keys(r.schemes ?? {}).length === 0)
  );
}

/** Whether the card declares the signed-request scheme. */
export function acceptsSignedRequests(card: AgentCard): boolean {
  return Object.hasOwn(card.securitySchemes ?? {}, SIGNED_REQUEST_SCHEME);
}

/**
 * A signed request token (compact JWS, EdDSA) whose `iss` is `issuer`,
 * signed with `signer`'s key: the two differ when the suite forges a claim.
 */
export function requestToken(
  signer: AgentIdentity,
  issuer: string,
  audience: string,
  url: string,
  body: string,
): string {
  const iat = Math.floor(Date.now() / 1000);
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const claims = {
    iss: issuer,
    aud: audience,
    htm: "POST",
    htu: url,
    iat,
    exp: iat + TOKEN_LIFETIME_SECONDS,
    jti: randomUUID(),
    bsh: createHash("sha256").update(body).digest("base64url"),
  };
  const input = `${encode({ alg: "EdDSA", typ: REQUEST_TOKEN_TYPE })}.${encode(claims)}`;
  const signature = nativeEd25519.sign(Buffer.from(input, "ascii"), signer.secretKey);
  return `${input}.${Buffer.from(signature).toString("base64url")}`;
}

/** How a request is credentialed: none, or a token signed by `signer` naming `issuer`. */
export type Credentials =
  | { anonymous: true }
  | { signer: AgentIdentity; issuer: string; audience: string };

function fetchWith(credentials: Credentials, timeoutMs: number): typeof fetch {
  const timed = timedFetch(timeoutMs);
  if ("anonymous" in credentials) return timed;
  return (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const body = typeof init?.body === "string" ? init.body : "";
    const token = requestToken(
      credentials.signer,
      credentials.issuer,
      credentials.audience,
      url,
      body,
    );
    const headers = new Headers(init?.headers);
    headers.set("Authorization", `Bearer ${token}`);
    return timed(input, { ...init, headers });
  };
}

/** What came back for one task: an output, a refusal (with why), or something malformed. */
export type TaskOutcome =
  | { kind: "answered"; output: Record<string, unknown> }
  | { kind: "refused"; reason: string }
  | { kind: "malformed"; reason: string }
  | { kind: "unreachable"; reason: string };

function dataOf(parts: Message["parts"] | undefined): Record<string, unknown> | undefined {
  for (const part of parts ?? [])
    if (part.content?.$case === "data") return record(part.content.value);
  return undefined;
}

function textOf(parts: Message["parts"] | undefined): string {
  return (parts ?? [])
    .flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : []))
    .join(" ");
}

function outcomeOf(result: Message | Task): TaskOutcome {
  if ("status" in result && result.status !== undefined) {
    const task = result as Task;
    const state = task.status?.state;
    if (state === TaskState.TASK_STATE_COMPLETED) {
      const output = dataOf(task.artifacts?.[0]?.parts);
      return output === undefined
        ? { kind: "malformed", reason: "a completed task without a data artifact" }
        : { kind: "answered", output };
    }
    const detail = dataOf(task.status?.message?.parts);
    const reason = `task ${TaskState[state ?? 0] ?? state}: ${textOf(task.status?.message?.parts)} ${JSON.stringify(detail?.["error"] ?? "")}`;
    return state === TaskState.TASK_STATE_REJECTED ||
      state === TaskState.TASK_STATE_FAILED ||
      state === TaskState.TASK_STATE_AUTH_REQUIRED
      ? { kind: "refused", reason }
      : { kind: "malformed", reason: `the task did not end (${reason})` };
  }
  const message = result as Message;
  const output = dataOf(message.parts);
  if (output === undefined)
    return { kind: "malformed", reason: `a reply without a data part: ${textOf(message.parts)}` };
  if (record(output["error"]) !== undefined)
    return { kind: "refused", reason: JSON.stringify(output["error"]) };
  return { kind: "answered", output };
}

/** Sends one §9.2 task to the agent of `card`, as a plain A2A client, within `timeoutMs`; never throws. */
export async function sendTask(
  card: AgentCard,
  timeoutMs: number,
  credentials: Credentials,
  task: string,
  input: unknown,
  from?: string,
): Promise<TaskOutcome> {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: fetchWith(credentials, timeoutMs) })],
    }),
  );
  try {
    const client = await factory.createFromAgentCard(card);
    const result = await client.sendMessage({
      tenant: "",
      message: dataMessage(Role.ROLE_USER, "", "", {
        task,
        input,
        ...(from === undefined ? {} : { from }),
      }),
      configuration: undefined,
      metadata: undefined,
    });
    return outcomeOf(result as Message | Task);
  } catch (error) {
    if (error instanceof JsonRpcTransportError) {
      const body = error.errorResponse.error as {
        code?: unknown;
        message?: unknown;
        data?: unknown;
      };
      return {
        kind: "refused",
        reason: `JSON-RPC error ${String(body.code)}: ${String(body.message)} ${JSON.stringify(body.data ?? "")}`,
      };
    }
    const reason = (error as Error).message;
    // An endpoint that refuses with a bare HTTP 401 / 403 (no JSON-RPC body) refuses too.
    return /\b40[13]\b/.test(reason)
      ? { kind: "refused", reason }
      : { kind: "unreachable", reason };
  }
}

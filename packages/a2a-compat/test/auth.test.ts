/**
 * Authentication of the A2A endpoint over real HTTP, with the official SDK
 * client as the peer: what the card declares, and every way a credential can
 * be wrong (none, forged, wrong key, unknown caller, expired, too long-lived,
 * replayed, for another body, endpoint or agent), and operator bearer tokens.
 */
import { TaskState } from "@a2a-js/sdk";
import { DefaultAgentCardResolver } from "@a2a-js/sdk/client";
import type { OCPAgent } from "@ocp/a2a-ocp-agent";
import type { AgentIdentity } from "@ocp/a2a-ocp-messaging";
import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createA2AClient, signRequestToken } from "../src/index.js";
import {
  BEARER_TOKEN_SCHEME,
  SIGNED_REQUEST_SCHEME,
  signingFetch,
  UNAUTHENTICATED_ERROR_CODE,
} from "../src/internal.js";
import { A2AServer } from "../src/server.js";
import { network, outcome, refused, sdkClientWith, sdkRequest, within } from "./support.js";

const search = () =>
  sdkRequest("search_and_respond", { queryId: "q", query: "anything", timeout: 5000 });
const TOKEN = "operator-issued-token-0123456789abcdef";

describe("A2A authentication (signed requests, bearer tokens)", () => {
  let agent: OCPAgent;
  let server: A2AServer;
  let alice: AgentIdentity;
  let mallory: AgentIdentity;

  beforeAll(async () => {
    const net = network(["guarded"]);
    [agent] = net.agents as [OCPAgent];
    alice = net.member("alice");
    mallory = net.member("mallory");
    server = await A2AServer.start({
      agent,
      auth: { bearerTokens: { [TOKEN]: "a2a://ops-bot" } },
    });
  });

  afterAll(async () => {
    await server.close();
    await agent.close();
  });

  /** An SDK client that sends `token(body, url)` as its bearer credential. */
  const craft = (token: (body: string, url: string) => string) =>
    sdkClientWith(server.url, (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set("Authorization", `Bearer ${token(String(init?.body ?? ""), String(input))}`);
      return fetch(input, { ...init, headers });
    });

  it("declares its schemes in the card, in the A2A JSON form the SDK reads; no scheme means none is optional", async () => {
    const card = await within(new DefaultAgentCardResolver().resolve(server.url));
    const schemes = Object.keys(card.securitySchemes).sort();
    expect(schemes).toEqual([BEARER_TOKEN_SCHEME, SIGNED_REQUEST_SCHEME].sort());
    const signed = card.securitySchemes[SIGNED_REQUEST_SCHEME]?.scheme;
    expect(signed?.$case).toBe("httpAuthSecurityScheme");
    expect(signed?.$case === "httpAuthSecurityScheme" && signed.value.scheme).toBe("Bearer");
    expect(card.securityRequirements.map((r) => Object.keys(r.schemes))).toEqual([
      [SIGNED_REQUEST_SCHEME],
      [BEARER_TOKEN_SCHEME],
    ]);
  });

  it("refuses a request without credentials: HTTP 401, WWW-Authenticate, a JSON-RPC error", async () => {
    const response = await fetch(server.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "SendMessage", params: {} }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="a2a+ocp"');
    expect(await response.json()).toMatchObject({
      jsonrpc: "2.0",
      id: 7,
      error: { code: UNAUTHENTICATED_ERROR_CODE, data: { reason: "missing_credentials" } },
    });
    const anonymous = await createA2AClient(server.url, { anonymous: true });
    expect(await refused(anonymous.sendMessage(search()))).toMatchObject({
      code: UNAUTHENTICATED_ERROR_CODE,
      reason: "missing_credentials",
    });
  });

  it("refuses a body with duplicate member names (I-JSON) as a parse error, before authentication", async () => {
    const body = '{"jsonrpc":"2.0","id":8,"method":"SendMessage","method":"GetTask","params":{}}';
    const response = await fetch(server.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      body,
    });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { error: { code: number; message: string } };
    expect(answer.error.code).toBe(-32700);
    expect(answer.error.message).toContain('two members named "method"');
  });

  it("accepts a signed request from a caller whose key it knows", async () => {
    const client = await createA2AClient(server.url, { identity: alice });
    const result = await within(client.sendMessage(search()));
    expect(outcome(result).state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("refuses a forged token (claims alice, signed by mallory), an unknown caller, and a caller whose key changed", async () => {
    const forged = await craft((body, url) =>
      signRequestToken({ ...mallory, id: alice.id }, { audience: agent.id, url, body }),
    );
    expect((await refused(forged.sendMessage(search()))).reason).toBe("bad_signature");
    const stranger = await createA2AClient(server.url, {
      identity: generateIdentity("a2a://stranger"),
    });
    expect((await refused(stranger.sendMessage(search()))).reason).toBe("unknown_caller");
    const rekeyed = await createA2AClient(server.url, {
      identity: { ...generateIdentity(alice.id) },
    });
    expect((await refused(rekeyed.sendMessage(search()))).reason).toBe("bad_signature");
  });

  it("refuses an expired token, one issued in the future, and one that lives too long", async () => {
    const hourAgo = () => Date.now() - 3_600_000;
    const expired = await craft((body, url) =>
      signRequestToken(alice, { audience: agent.id, url, body, now: hourAgo }),
    );
    expect((await refused(expired.sendMessage(search()))).reason).toBe("expired");
    const future = await craft((body, url) =>
      signRequestToken(alice, { audience: agent.id, url, body, now: () => Date.now() + 600_000 }),
    );
    expect((await refused(future.sendMessage(search()))).reason).toBe("not_yet_valid");
    const forever = await craft((body, url) =>
      signRequestToken(alice, { audience: agent.id, url, body, lifetimeSeconds: 86_400 }),
    );
    expect((await refused(forever.sendMessage(search()))).reason).toBe("lifetime_too_long");
  });

  it("accepts a token once: the same request replayed is refused", async () => {
    let captured: { body: string; authorization: string } | undefined;
    const recorder = signingFetch(alice, {
      audience: agent.id,
      fetch: (input, init) => {
        captured = {
          body: String(init?.body),
          authorization: new Headers(init?.headers).get("authorization") ?? "",
        };
        return fetch(input, init);
      },
    });
    const first = await sdkClientWith(server.url, recorder);
    expect(outcome(await within(first.sendMessage(search()))).state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
    const replay = await sdkClientWith(server.url, (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set("Authorization", captured?.authorization ?? "");
      return fetch(input, { ...init, headers, body: captured?.body ?? "" });
    });
    expect((await refused(replay.sendMessage(search()))).reason).toBe("replayed");
  });

  it("refuses a token over another body, for another endpoint, or for another agent", async () => {
    const otherBody = await craft((_body, url) =>
      signRequestToken(alice, { audience: agent.id, url, body: '{"jsonrpc":"2.0"}' }),
    );
    expect((await refused(otherBody.sendMessage(search()))).reason).toBe("body_mismatch");
    const otherUrl = await craft((body) =>
      signRequestToken(alice, { audience: agent.id, url: "http://127.0.0.1:1/a2a/jsonrpc", body }),
    );
    expect((await refused(otherUrl.sendMessage(search()))).reason).toBe("wrong_target");
    const otherAgent = await createA2AClient(
      server.url,
      { identity: alice },
      { audience: "a2a://someone-else" },
    );
    expect((await refused(otherAgent.sendMessage(search()))).reason).toBe("wrong_audience");
    const garbage = await craft(() => "not.a.token");
    expect((await refused(garbage.sendMessage(search()))).reason).toBe("unknown_token");
  });

  it("maps an operator's bearer token to its identity, and refuses an unknown one", async () => {
    const bot = await createA2AClient(server.url, { bearerToken: TOKEN });
    const shared = await within(
      bot.sendMessage(sdkRequest("share_awareness", { status: "working", availability: "busy" })),
    );
    expect(outcome(shared).state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(agent.presence.get("a2a://ops-bot")?.status).toBe("working");
    const wrong = await createA2AClient(server.url, { bearerToken: `${TOKEN}x` });
    expect((await refused(wrong.sendMessage(search()))).reason).toBe("unknown_token");
  });

  it("refuses configurations that would let nobody in or accept weak bearer tokens", async () => {
    const [lonely] = network(["lonely"]).agents as [OCPAgent];
    const listening = await A2AServer.listen();
    try {
      expect(() => listening.serve({ agent: lonely, auth: { signedRequests: false } })).toThrow(
        /no caller could get in/,
      );
      expect(() =>
        listening.serve({ agent: lonely, auth: { bearerTokens: { short: "a2a://x" } } }),
      ).toThrow(/at least 32 characters/);
      const card = listening.cardFor({ id: lonely.id });
      expect(() =>
        listening.serve({ agent: lonely, card, auth: { allowAnonymous: true } }),
      ).toThrow(/do not match `auth`/);
    } finally {
      await listening.close();
      await lonely.close();
    }
  });
});

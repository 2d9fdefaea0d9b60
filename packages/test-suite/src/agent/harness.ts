/**
 * `--agent-cmd`: the hub the suite runs for an agent it starts. It speaks
 * the hub side of the connection lifecycle (§6.4): ack with a nonce, the
 * agent's signed announcement (verified), `ocp.connection.registered`. The
 * suite's testers live inside this hub: what a tester sends reaches the
 * agent as exact text, unchecked (so forgeries reach the agent, which must
 * verify them itself, §8.3); what the agent sends is acknowledged
 * (`ocp.hub.ack`) and handed to the testers it names (`broadcast`: all).
 * `ocp.hub.lookup` and `ocp.hub.discovery.query` are answered with the
 * testers' signed profiles.
 */
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import {
  type AgentIdentity,
  type AgentProfile,
  createAgentProfile,
  OCP_FEATURES,
  type OcpFeature,
  verifyAgentProfile,
} from "@ocp/a2a-ocp-messaging";
import {
  encodeHubControl,
  isHubFrame,
  profilePublicKey,
  verifyAnnouncement,
} from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { type WebSocket, WebSocketServer } from "ws";
import { SUBPROTOCOL } from "../raw.js";
import { Inbox, type Tester } from "./session.js";

/** Features the harness confirms at registration (§7.2): it forwards every type, so all of §7.1. */
const HARNESS_FEATURES: readonly OcpFeature[] = OCP_FEATURES;

/**
 * The limits the harness announces in its ack (some clients require them):
 * what it accepts, and its heartbeat (a WebSocket ping every interval).
 */
const HARNESS_LIMITS = {
  maxPayloadBytes: 16 * 1024 * 1024,
  maxBatchRecords: 100,
  heartbeatIntervalMs: 15_000,
  heartbeatTimeoutMs: 60_000,
  handshakeTimeoutMs: 10_000,
};

const control = (type: string, payload: Record<string, unknown>) =>
  JSON.stringify({ protocol: "a2a+ocp", version: "1.0.0", type, payload });

export interface RegisteredAgent {
  agentId: string;
  agentKey: Uint8Array;
  /** Its signed profile, verified. */
  profile: Record<string, unknown>;
}

export interface AgentHarness {
  readonly url: string;
  /** Resolves when an agent registered; rejects with `stopped()`'s reason if that comes first. */
  registered(stopped: Promise<string>, timeoutMs: number): Promise<RegisteredAgent>;
  /** Refused registrations, for evidence. */
  readonly refusals: string[];
  tester(identity: AgentIdentity): Tester;
  close(): Promise<void>;
}

export async function startAgentHarness(host = "127.0.0.1"): Promise<AgentHarness> {
  const testers = new Map<string, { tester: Tester; profile: AgentProfile }>();
  const refusals: string[] = [];
  let agent: (RegisteredAgent & { ws: WebSocket }) | undefined;
  const arrivals = new Set<() => void>();

  const wss = new WebSocketServer({
    host,
    port: 0,
    perMessageDeflate: false,
    maxPayload: HARNESS_LIMITS.maxPayloadBytes,
    handleProtocols: (protocols) => (protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
  });
  await new Promise<void>((resolve) => wss.once("listening", () => resolve()));

  const fromAgent = (ws: WebSocket, text: string) => {
    if (isHubFrame(text)) {
      let frame: { type?: unknown; payload?: { agentId?: unknown; queryId?: unknown } } = {};
      try {
        frame = JSON.parse(text);
      } catch {}
      if (frame.type === "ocp.hub.discovery.query") {
        // §7.3 the testers' cards (where an agent finds their §8.4 encryption keys).
        const cards = [...testers.values()].map((t) => t.profile);
        const queryId = String(frame.payload?.queryId ?? "");
        ws.send(encodeHubControl("ocp.hub.discovery.result", { queryId, cards, truncated: false }));
      }
      if (frame.type === "ocp.hub.lookup") {
        const wanted = String(frame.payload?.agentId ?? "");
        const profile =
          testers.get(wanted)?.profile ?? (wanted === agent?.agentId ? agent.profile : undefined);
        ws.send(
          encodeHubControl(
            "ocp.hub.profile",
            profile === undefined ? { agentId: wanted } : { agentId: wanted, profile },
          ),
        );
      }
      return;
    }
    let value: { id?: unknown; to?: unknown } = {};
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    const to = value.to;
    const names = to === "broadcast" ? [...testers.keys()] : Array.isArray(to) ? to : [to];
    const recipients = names.filter((name): name is string => testers.has(String(name)));
    for (const name of recipients) testers.get(name)?.tester.inbox.push(text);
    if (typeof value.id === "string")
      ws.send(
        encodeHubControl("ocp.hub.ack", {
          id: value.id,
          durable: to !== "broadcast",
          recipients: recipients.length,
          excluded: 0,
          expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        }),
      );
  };

  wss.on("connection", (ws) => {
    const nonce = randomBytes(32).toString("base64url");
    let registered = false;
    ws.send(
      control("ocp.connection.ack", {
        nonce,
        serverTime: new Date().toISOString(),
        limits: HARNESS_LIMITS,
      }),
    );
    const heartbeat = setInterval(() => ws.ping(), HARNESS_LIMITS.heartbeatIntervalMs);
    heartbeat.unref();
    ws.on("close", () => clearInterval(heartbeat));
    ws.on("message", (data) => {
      const text = data.toString();
      if (registered) {
        if (text.includes('"ocp.connection.disconnect"')) ws.close(1000, "bye");
        else fromAgent(ws, text);
        return;
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {}
      const verified = verifyAnnouncement(value, nonce, nativeEd25519);
      const profile = verified.ok
        ? verifyAgentProfile(verified.value.profile, nativeEd25519)
        : undefined;
      if (!verified.ok || profile === undefined || !profile.ok) {
        const reason = verified.ok ? "the profile does not verify" : verified.error.message;
        refusals.push(reason);
        ws.send(control("ocp.connection.refused", { reason, code: 4001 }));
        ws.close(4001, "refused");
        return;
      }
      registered = true;
      agent?.ws.close(1000, "replaced");
      agent = {
        agentId: profile.value.id,
        agentKey: profilePublicKey(profile.value),
        ws,
        profile: verified.value.profile,
      };
      ws.send(
        control("ocp.connection.registered", {
          agentId: profile.value.id,
          supportedFeatures: HARNESS_FEATURES,
        }),
      );
      for (const arrival of [...arrivals]) arrival();
    });
  });

  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://${host}:${port}/`,
    refusals,
    registered(stopped, timeoutMs) {
      return new Promise<RegisteredAgent>((resolve, reject) => {
        const refused = () =>
          refusals.length > 0 ? `; its announcement was refused: ${refusals.join("; ")}` : "";
        const timer = setTimeout(() => {
          arrivals.delete(check);
          reject(
            new Error(
              `the agent did not register at the suite's hub within ${timeoutMs} ms${refused()}`,
            ),
          );
        }, timeoutMs);
        const check = () => {
          if (agent === undefined) return;
          clearTimeout(timer);
          arrivals.delete(check);
          resolve({ agentId: agent.agentId, agentKey: agent.agentKey, profile: agent.profile });
        };
        arrivals.add(check);
        check();
        stopped.then((reason) => {
          clearTimeout(timer);
          arrivals.delete(check);
          reject(new Error(`${reason}${refused()}`));
        });
      });
    },
    tester(identity) {
      const inbox = new Inbox();
      const profile = createAgentProfile(identity, {}, nativeEd25519);
      const tester: Tester = {
        identity,
        inbox,
        send: (text) => {
          if (agent !== undefined && agent.ws.readyState === agent.ws.OPEN) agent.ws.send(text);
        },
        close: () => {
          testers.delete(identity.id);
        },
      };
      testers.set(identity.id, { tester, profile });
      return tester;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}

/**
 * A WebSocket relay between agents and a hub that records every text frame
 * the hub sends, exactly as it crossed the wire, and can inject frames of
 * its own (a hub that skips its checks).
 */
import { type WebSocket as Socket, WebSocket, WebSocketServer } from "ws";

export interface WireTap {
  /** The `ws://` URL to give agents instead of the hub's. */
  readonly url: string;
  /** Every text frame the hub sent through the tap, in order. */
  readonly frames: string[];
  /** Sends `frame` to every agent connected through the tap, as if the hub had. */
  inject(frame: string): void;
  close(): Promise<void>;
}

export async function wireTap(hubUrl: string): Promise<WireTap> {
  const frames: string[] = [];
  const downstream = new Set<Socket>();
  const server = new WebSocketServer({
    host: "127.0.0.1",
    port: 0,
    perMessageDeflate: false,
    handleProtocols: (protocols) => [...protocols][0] ?? false,
  });
  await new Promise<void>((resolve) => server.once("listening", resolve));
  server.on("connection", (agent) => {
    downstream.add(agent);
    const hub = new WebSocket(hubUrl, agent.protocol === "" ? [] : [agent.protocol], {
      perMessageDeflate: false,
    });
    const early: string[] = [];
    hub.on("open", () => {
      for (const frame of early.splice(0)) hub.send(frame);
    });
    agent.on("message", (data) => {
      const text = data.toString();
      if (hub.readyState === WebSocket.OPEN) hub.send(text);
      else early.push(text);
    });
    hub.on("message", (data) => {
      const text = data.toString();
      frames.push(text);
      if (agent.readyState === WebSocket.OPEN) agent.send(text);
    });
    const end = () => {
      downstream.delete(agent);
      agent.close();
      hub.close();
    };
    agent.on("close", end);
    hub.on("close", end);
    agent.on("error", end);
    hub.on("error", end);
  });
  const { port } = server.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${port}`,
    frames,
    inject(frame) {
      for (const agent of downstream) agent.send(frame);
    },
    async close() {
      for (const agent of downstream) agent.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP relay on 127.0.0.1 in front of a real server: every byte a client
 * sends is counted (and kept) before it is forwarded. What the provider's
 * server could have received is exactly what passed here.
 */
export interface ByteCounter {
  readonly port: number;
  /** Bytes received from clients so far. */
  bytes(): number;
  /** Everything received from clients so far, as text. */
  received(): string;
  close(): Promise<void>;
}

export async function countBytesTo(targetPort: number): Promise<ByteCounter> {
  const chunks: Buffer[] = [];
  let total = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    const upstream = connect({ host: "127.0.0.1", port: targetPort });
    sockets.add(upstream);
    client.on("data", (chunk: Buffer) => {
      total += chunk.length;
      chunks.push(chunk);
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", end);
    upstream.on("close", end);
    client.on("error", end);
    upstream.on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    port: address.port,
    bytes: () => total,
    received: () => Buffer.concat(chunks).toString("utf8"),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

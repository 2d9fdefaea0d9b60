/**
 * A message the store failed to commit was never acknowledged: the hub
 * refuses it `store_failed` and forgets its id, so the sender's resend of the
 * very same signed message is stored and delivered (not refused as a replay
 * of a message that was never kept). A real SQLite file behind a store whose
 * first commit fails, a real hub over real sockets.
 */
import { createMessage, signObject } from "@ocp/a2a-ocp-messaging";
import { rawAgent } from "@ocp/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type HubStore, type OCPHub, SqliteStore } from "../src/index.js";
import { identity, node, startHub, tempDir, until } from "./support.js";

let dir: { dir: string; cleanup: () => void } | undefined;
let hub: OCPHub | undefined;

afterEach(async () => {
  await hub?.close();
  dir?.cleanup();
});

/** The real store, whose next `failures` commits throw (a full disk, a lost lock). */
function failingStore(path: string, failures: number): HubStore {
  const real = new SqliteStore({ path });
  let left = failures;
  return new Proxy(real, {
    get(target, key, receiver) {
      if (key === "commit") {
        return (batch: Parameters<HubStore["commit"]>[0]) => {
          if (left > 0) {
            left -= 1;
            return Promise.reject(new Error("disk I/O error"));
          }
          return target.commit(batch);
        };
      }
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("a commit that fails", () => {
  it("is refused store_failed; the resend of the same signed message is kept and delivered once", async () => {
    dir = tempDir();
    hub = await startHub(dir.dir, { store: failingStore(`${dir.dir}/hub.sqlite`, 1) });
    const alice = identity("alice");
    const bob = identity("bob");
    const sender = await rawAgent(hub.url, alice);
    const receiver = await rawAgent(hub.url, bob);
    const text = JSON.stringify(
      signObject(
        createMessage({
          type: "ocp.knowledge.stream",
          from: alice.id,
          to: bob.id,
          payload: {
            streamId: "s",
            nodes: [node(alice.id, "n1")],
            isIncremental: true,
            sequenceNumber: 1,
          },
        }),
        alice.secretKey,
      ),
    );
    const id = JSON.parse(text).id as string;
    const answers = () => sender.controls().filter((c) => c.payload["id"] === id);
    sender.send(text);
    await until(() => answers().length === 1, "the answer to the first send");
    expect(answers()[0]).toMatchObject({
      type: "ocp.hub.reject",
      payload: { code: "store_failed" },
    });
    sender.send(text); // the client's resend: same id, same bytes
    await until(() => answers().length === 2, "the answer to the resend");
    expect(answers()[1]).toMatchObject({ type: "ocp.hub.ack", payload: { durable: true } });
    await until(() => receiver.delivered().length === 1, "bob's delivery");
    expect(JSON.parse(receiver.delivered()[0]!).id).toBe(id);
    // Kept now: a third copy is a replay.
    sender.send(text);
    await until(() => answers().length === 3, "the answer to the third copy");
    expect(answers()[2]).toMatchObject({
      type: "ocp.hub.reject",
      payload: { code: "replay_detected" },
    });
    sender.close();
    receiver.close();
  });
});

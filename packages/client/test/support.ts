/** The real hub and the teammates the `@ocp/client` tests talk to. */
import { hubLink, OCPAgent as Runtime } from "@ocp/a2a-ocp-agent";
import { HubClient } from "@ocp/a2a-ocp-client";
import { OCPHub } from "@ocp/a2a-ocp-hub";
import { identity, tempDir, testHubOptions } from "@ocp/testkit";
import { afterEach, beforeEach } from "vitest";
import type { KnowledgeNode } from "../src/index.js";

export interface HubFixture {
  readonly hub: OCPHub;
  /** Runs at teardown, last registered first. */
  readonly closers: Array<() => Promise<unknown>>;
  /** A teammate on the agent runtime, as another team's code would run it. */
  teammate(name: string): Promise<Runtime>;
}

/** A real hub on a real SQLite file for each test, closed with everything it served. */
export function useHub(): HubFixture {
  let dir: { dir: string; cleanup: () => void };
  let hub: OCPHub | undefined;
  const closers: Array<() => Promise<unknown>> = [];
  beforeEach(async () => {
    dir = tempDir("ocp-client-");
    hub = await OCPHub.start(testHubOptions(dir.dir));
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await hub?.close();
    dir.cleanup();
  });
  return {
    get hub() {
      if (hub === undefined) throw new Error("the hub starts in beforeEach");
      return hub;
    },
    closers,
    async teammate(name) {
      const id = identity(name);
      const client = new HubClient({ url: this.hub.url, identity: id });
      await client.connect();
      const runtime = new Runtime({ identity: id, link: hubLink(client) }).start();
      closers.push(() => runtime.close());
      return runtime;
    },
  };
}

/** A public knowledge node by `createdBy`, unique id unless given. */
export const node = (createdBy: string, over: Partial<KnowledgeNode> = {}): KnowledgeNode => ({
  id: `node-${Math.random().toString(36).slice(2)}`,
  type: "code.solution",
  title: "Fixed memory leak",
  data: {},
  confidence: 0.9,
  timestamp: new Date().toISOString(),
  createdBy,
  tags: ["bug-fix"],
  ...over,
});

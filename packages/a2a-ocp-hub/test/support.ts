import type { HubClient, HubClientOptions } from "@ocp/a2a-ocp-client";
import type { AgentIdentity } from "@ocp/a2a-ocp-messaging";
import { client, identity, type RawAgent, rawAgent, tempDir, testHubOptions } from "@ocp/testkit";
import { afterEach, beforeEach } from "vitest";
import { OCPHub, type OCPHubOptions } from "../src/index.js";

export { accessNode as node, client, identity, tempDir, until, within } from "@ocp/testkit";

/** A hub on 127.0.0.1:0 with a real SQLite file in `dir`; generous rate limits unless given. */
export function startHub(dir: string, options: OCPHubOptions = {}): Promise<OCPHub> {
  return OCPHub.start({ ...testHubOptions(dir), ...options });
}

/**
 * A fresh hub for each test of the calling file (a real SQLite file in a temp
 * dir), and the raw agents and hub clients on it, closed after each test:
 * registers the `beforeEach`/`afterEach` pair the file would otherwise write
 * itself.
 */
export function hubPerTest(options: () => OCPHubOptions = () => ({})) {
  let dir: { dir: string; cleanup: () => void } | undefined;
  let current: OCPHub | undefined;
  const raws: RawAgent[] = [];
  const clients: HubClient[] = [];
  beforeEach(async () => {
    dir = tempDir();
    current = await startHub(dir.dir, options());
  });
  afterEach(async () => {
    for (const raw of raws.splice(0)) raw.close();
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
    await current?.close();
    dir?.cleanup();
  });
  return {
    /** The current test's hub. */
    get hub(): OCPHub {
      if (current === undefined) throw new Error("hubPerTest: no hub outside a test");
      return current;
    },
    /** A raw agent registered as `id` on the current hub, closed after the test. */
    async raw(id: AgentIdentity): Promise<RawAgent> {
      const agent = await rawAgent(this.hub.url, id);
      raws.push(agent);
      return agent;
    },
    /** Closes the current hub and starts another on the same SQLite file with `options`. */
    async restart(restartOptions: OCPHubOptions): Promise<OCPHub> {
      await current?.close();
      if (dir === undefined) throw new Error("hubPerTest: no hub outside a test");
      current = await startHub(dir.dir, restartOptions);
      return current;
    },
    /** Hub clients opened by {@link join} (or pushed by the test), closed after it. */
    clients,
    /** A fresh identity named `name`, registered on the current hub by a hub client. */
    async join(name: string, options: Partial<HubClientOptions> = {}) {
      const id = identity(name);
      const joined = await client(this.hub.url, id, options);
      clients.push(joined.client);
      return { id, ...joined };
    },
  };
}

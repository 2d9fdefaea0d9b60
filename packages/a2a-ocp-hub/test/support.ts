import { testHubOptions } from "@ocp/testkit";
import { OCPHub, type OCPHubOptions } from "../src/index.js";

export { accessNode as node, client, identity, tempDir, until, within } from "@ocp/testkit";

/** A hub on 127.0.0.1:0 with a real SQLite file in `dir`; generous rate limits unless given. */
export function startHub(dir: string, options: OCPHubOptions = {}): Promise<OCPHub> {
  return OCPHub.start({ ...testHubOptions(dir), ...options });
}

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as limits from "../../src/nats/limits.js";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

describe("README, clustered hubs", () => {
  it("lists every NATS limit constant with its value", () => {
    const start = readme.indexOf("<!-- nats-limits -->");
    const end = readme.indexOf("<!-- /nats-limits -->");
    expect(start).toBeGreaterThan(0);
    const table = readme.slice(start, end);
    for (const [name, value] of Object.entries(limits)) {
      expect(table).toMatch(new RegExp(`\\|\\s*\`${name}\`\\s*\\|\\s*${value}\\s*\\|`));
    }
  });

  it("shows the cluster command lines with the flags the CLI takes", () => {
    expect(readme).toContain("nats-server -a 127.0.0.1 -p 4222 -js -sd");
    expect(readme).toContain("ocp-hub --port 8701 --nats nats://127.0.0.1:4222 --workspace acme");
    const cli = readFileSync(new URL("../../src/hub/cli.ts", import.meta.url), "utf8");
    for (const flag of ["--nats URL", "--workspace NAME", "--nats-replicas N"])
      expect(cli).toContain(flag);
  });
});

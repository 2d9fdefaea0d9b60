// The federation demo's agent processes (bin/federation-demo-agent.mjs),
// driven by JSON lines: each keeps every message it received, so the demo
// checks what did (and did not) arrive instead of asserting it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAgentProfile, generateIdentity } from "@ocp/a2a-ocp-messaging";
import { saveIdentity } from "@ocp/a2a-ocp-messaging/node";
import { commandedProcess } from "../processes.mjs";
import { until } from "../wait.mjs";

const agentBin = fileURLToPath(new URL("../../bin/federation-demo-agent.mjs", import.meta.url));

/**
 * Starts agent `name` (`acme/alice`) on the hub at `url`, with the identity
 * and card of `keyFile` (see {@link teamMember}) or new ones; resolves once
 * it registered.
 */
export async function startAgent(name, url, children, keyFile) {
  const received = [];
  const agent = commandedProcess(agentBin, [name, url, ...(keyFile ? [keyFile] : [])], {
    name,
    children,
    onEvent: (event) => {
      if (event.ev === "message") received.push(event);
    },
  });
  const { id } = await agent.ready;
  return {
    name,
    id,
    received,
    /** Titles of every node received so far. */
    titles: () => received.flatMap((m) => m.titles),
    /** Runs one command; resolves with the agent's answer, rejects when it failed. */
    run: agent.run,
    /** Waits until a received message passes `test`. */
    receives: (test, what) => until(() => received.find(test), `${name} receives ${what}`),
  };
}

/**
 * Makes `name`'s identity file and public signed card in `dir`, for a hub
 * started with `--allow`; returns the key file and the allow-list entry
 * (the card with the team the hub gives it).
 */
export async function teamMember(dir, name, team) {
  const identity = generateIdentity(`a2a://${name}`);
  const keyFile = join(dir, `${name.replace("/", "-")}.key`);
  await saveIdentity(keyFile, identity);
  const profile = createAgentProfile(identity, { extra: { visibility: "public" } });
  writeFileSync(`${keyFile}.profile.json`, JSON.stringify(profile));
  return { keyFile, entry: { profile, team } };
}

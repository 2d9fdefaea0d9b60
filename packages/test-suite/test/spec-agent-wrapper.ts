/**
 * A command-line entry point for the spec-literal test agent of
 * `@ocp/a2a-ocp-agent` (`test/spec-only/spec-agent.ts`, written from the
 * specification only): joins the hub at `OCP_HUB_URL` and stays connected
 * until SIGTERM. `spec-agent.test.ts` compiles both files and runs this one
 * under `ocp-test --agent-cmd`.
 */
// Compiled next to this file by the test; a variable, so the type checker does not look for it here.
const specAgentModule = "./spec-agent.js";
const { connectSpecAgent } = (await import(specAgentModule)) as {
  connectSpecAgent(url: string, id: string): Promise<{ id: string; close(): void }>;
};

const url = process.env["OCP_HUB_URL"];
if (url === undefined || url === "") {
  process.stderr.write("spec-agent: OCP_HUB_URL is not set\n");
  process.exit(2);
}
const agent = await connectSpecAgent(url, `a2a://spec-agent-${process.pid}`);
process.stdout.write(`${agent.id}\n`);
process.once("SIGTERM", () => {
  agent.close();
  process.exit(0);
});

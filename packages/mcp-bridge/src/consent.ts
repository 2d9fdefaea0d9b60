import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ProviderInfo } from "@ocp/types";
import { bridgeError } from "./errors.js";
import { CONSENT_TIMEOUT_MS } from "./limits.js";

/** The consent state of one wrapped provider, for the life of the server process. */
export interface ConsentGate {
  readonly provider: ProviderInfo;
  granted: boolean;
}

/**
 * C1, C2: an egress provider is queried only with consent. Given up front
 * with `--grant NAME` (NAME must be the provider's declared name), or asked
 * of the user through the MCP client with a form elicitation that names the
 * provider and what leaves; accepted once, it holds for this process. A
 * client that cannot elicit gets a `consent_required` tool error; a user who
 * declines or cancels gets `consent_declined`. Consent is never assumed.
 */
export async function ensureConsent(server: McpServer, gate: ConsentGate): Promise<void> {
  const { provider } = gate;
  if (!provider.data_flow.egress || gate.granted) return;
  const name = provider.name;
  if (server.server.getClientCapabilities()?.elicitation === undefined) {
    throw bridgeError(
      "consent_required",
      `consent_required: provider "${name}" is egress (your goal leaves this machine) and no consent was given; ` +
        `restart ocp-to-mcp with --grant "${name}", or use an MCP client that supports elicitation`,
      { details: { provider: name } },
    );
  }
  const answer = await server.server
    .elicitInput(
      {
        mode: "form",
        message:
          `The Open Context provider "${name}" ${provider.version} sends data off this machine. ` +
          `Allow query_context to send it your goals for the rest of this session?`,
        requestedSchema: {
          type: "object",
          properties: {
            allow: {
              type: "boolean",
              title: `Send goals to "${name}"`,
              description: "Each query_context goal is sent to this provider.",
            },
          },
          required: ["allow"],
        },
      },
      { timeout: CONSENT_TIMEOUT_MS },
    )
    .catch((error: unknown) => {
      throw bridgeError(
        "consent_declined",
        `consent_declined: no answer to the consent request for "${name}": ${(error as Error).message}`,
        { details: { provider: name } },
      );
    });
  if (answer.action === "accept" && answer.content?.allow === true) {
    gate.granted = true;
    return;
  }
  throw bridgeError(
    "consent_declined",
    `consent_declined: the user did not allow sending goals to "${name}" (${answer.action})`,
    { details: { provider: name } },
  );
}

import { createInterface } from "node:readline/promises";
import type { ProviderListing } from "@ocp/host";

/**
 * Asks on the terminal whether `provider` may receive queries, naming what
 * leaves the machine (C1). Anything but an explicit yes is a no.
 */
export async function askConsent(provider: ProviderListing, whatLeaves: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(
      `Provider "${provider.id}" (${provider.info.name} ${provider.info.version}, ${provider.transport}) sends data off this machine.\n` +
        `What leaves: ${whatLeaves}\nAllow it? [y/N] `,
    );
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

import {
  type ConnectHttpProviderOptions,
  connectCgpHttpProvider,
  connectHttpProvider,
} from "@ocp/transport-http/client";
import {
  type SpawnStdioProviderOptions,
  spawnCgpStdioProvider,
  spawnStdioProvider,
} from "@ocp/transport-stdio";
import type { ContextProvider, ProtocolFamily } from "@ocp/types";
import {
  type CgpSession,
  checkCgpSession,
  negotiate,
  providerOfSession,
  type RefusedOffer,
} from "./session.js";

/** A provider reached in one family: its registry face, and its CGP session when CGP. */
export interface Connected {
  readonly provider: ContextProvider;
  readonly family: ProtocolFamily;
  readonly session?: CgpSession;
  /** Families offered first and refused by name. */
  readonly refused: readonly RefusedOffer[];
  readonly endpoint?: string;
}

/** A session that passed the handshake but breaks C5 or H2 is shut down and refused. */
async function accepted(session: CgpSession): Promise<CgpSession> {
  try {
    checkCgpSession(session);
    return session;
  } catch (error) {
    await session.shutdown().catch(() => undefined);
    throw error;
  }
}

/**
 * Spawns a stdio provider, offering the families in order; each offer is a
 * fresh child (a refused child is killed by its transport).
 */
export async function connectStdio(
  options: SpawnStdioProviderOptions,
  families: readonly ProtocolFamily[],
): Promise<Connected> {
  const { value, family, refused } = await negotiate(families, async (family) =>
    family === "ocp/1"
      ? { provider: (await spawnStdioProvider(options)) as ContextProvider, session: undefined }
      : { provider: undefined, session: await accepted(await spawnCgpStdioProvider(options)) },
  );
  if (value.session !== undefined) {
    return { provider: providerOfSession(value.session), family, session: value.session, refused };
  }
  return { provider: value.provider as ContextProvider, family, refused };
}

/**
 * Connects to an HTTP provider, offering the families in order, each over a
 * fresh connection. C7 and C8 are the transport's in both families: a
 * plain-http URL off loopback is refused before a byte leaves, and the token
 * is never part of an error.
 */
export async function connectHttp(
  options: ConnectHttpProviderOptions,
  families: readonly ProtocolFamily[],
): Promise<Connected> {
  const { value, family, refused } = await negotiate(families, async (family) => {
    if (family === "ocp/1") {
      const provider = await connectHttpProvider(options);
      return { provider: provider as ContextProvider, session: undefined, endpoint: provider.url };
    }
    const remote = await connectCgpHttpProvider(options);
    return { provider: undefined, session: await accepted(remote), endpoint: remote.url };
  });
  if (value.session !== undefined) {
    return {
      provider: providerOfSession(value.session),
      family,
      session: value.session,
      refused,
      endpoint: value.endpoint,
    };
  }
  return { provider: value.provider as ContextProvider, family, refused, endpoint: value.endpoint };
}

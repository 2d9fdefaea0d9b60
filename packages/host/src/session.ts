import {
  type Capabilities,
  type ContextFrame,
  type ContextProvider,
  FRAME_KINDS,
  type FrameKind,
  isOcpError,
  type ProtocolFamily,
  type ProviderInfo,
  type QueryOptions,
} from "@ocp/types";
import {
  CGP_PROTOCOL_VERSION,
  type CgpCapabilities,
  type CgpFrame,
  type CgpProviderInfo,
  type CgpQuery,
  type CgpQueryResult,
  type CgpVerifyRequest,
  type CgpVerifyResponse,
  cgpHandshakeViolations,
  isOpaqueFrame,
} from "@ocp/types/cgp";
import { hostError } from "./errors.js";

/** The families a host can offer, in the order a registration may list them. */
export const FAMILIES: readonly ProtocolFamily[] = ["ocp/1", "contextgraph/1"];

/**
 * A `contextgraph/1` session with one provider, as the CGP clients of
 * `@ocp/transport-stdio` and `@ocp/transport-http` give it.
 */
export interface CgpSession {
  readonly id: string;
  readonly family: "contextgraph/1";
  readonly protocolVersion: string;
  readonly info: CgpProviderInfo;
  readonly capabilities: CgpCapabilities;
  query(query: CgpQuery, options?: QueryOptions): Promise<CgpQueryResult>;
  verify(request: CgpVerifyRequest, options?: QueryOptions): Promise<CgpVerifyResponse>;
  shutdown(): Promise<void>;
}

/** Which family (or families, tried in order) a registration offers. */
export interface FamilyOptions {
  /** The one family to offer. */
  readonly family?: ProtocolFamily;
  /**
   * Families to offer in order: a provider that refuses one by name
   * (`incompatible_version`, or an error naming the version) is handshaken
   * again, afresh, in the next. Exclusive with `family`.
   */
  readonly families?: readonly ProtocolFamily[];
}

/** The families a registration offers: `families`, `[family]`, or the host's default. */
export function familiesOf(
  options: FamilyOptions,
  fallback: readonly ProtocolFamily[],
): readonly ProtocolFamily[] {
  if (options.family !== undefined && options.families !== undefined) {
    throw hostError("invalid_option", "give either family or families, not both");
  }
  const list = options.families ?? (options.family === undefined ? fallback : [options.family]);
  if (
    list.length === 0 ||
    new Set(list).size !== list.length ||
    list.some((f) => !FAMILIES.includes(f))
  ) {
    throw hostError(
      "invalid_option",
      `families must list distinct values of ${FAMILIES.join(", ")}, got ${JSON.stringify(list)}`,
      { details: { option: "families", value: list } },
    );
  }
  return list;
}

/**
 * Whether a handshake failure is the provider refusing the offered family by
 * name: `incompatible_version` (H3; CGP's code, or our ocp/1 transports'
 * reading of another family's ack), or an `error` reply to the handshake
 * whose message names the version (the ocp/1 reference has no codes).
 */
export function refusesFamily(error: unknown): boolean {
  if (!isOcpError(error)) return false;
  if (error.code === "incompatible_version") return true;
  const details = (error as { details?: { code?: unknown; message?: unknown } }).details;
  if (details?.code === "incompatible_version") return true;
  return (
    error.code === "provider_error" &&
    typeof details?.message === "string" &&
    /\bversion\b|ocp\/1|contextgraph\/1/i.test(details.message)
  );
}

/** One refused offer, kept on the listing. */
export interface RefusedOffer {
  readonly family: ProtocolFamily;
  readonly code: string;
  readonly message: string;
}

/**
 * Offers each family in order until a provider accepts one; a refusal by
 * name moves to the next, any other failure ends it. When every family is
 * refused, the last refusal is thrown with every offer in its details.
 */
export async function negotiate<T>(
  families: readonly ProtocolFamily[],
  attempt: (family: ProtocolFamily) => Promise<T>,
): Promise<{ value: T; family: ProtocolFamily; refused: RefusedOffer[] }> {
  const refused: RefusedOffer[] = [];
  for (const [index, family] of families.entries()) {
    try {
      return { value: await attempt(family), family, refused };
    } catch (error) {
      if (!refusesFamily(error) || index === families.length - 1) {
        if (refused.length > 0 && isOcpError(error)) {
          Object.assign(error.details, { refusedFamilies: refused });
        }
        throw error;
      }
      const e = error as { code: string; message: string };
      refused.push({ family, code: e.code, message: e.message });
    }
  }
  throw hostError("invalid_option", "no family to offer");
}

/**
 * The handshake rulebook of `@ocp/types/cgp` on a session that passed its
 * transport's version check: H2 (name and version non-empty), C5 (no
 * off-machine scope with `egress: false`; custom scopes namespaced, U3) and
 * X-RESOLVE (`compact`/`reference` advertised with `resolve: true`). A
 * session breaking any is refused: C5 as `egress_scope_inconsistent`, the
 * others as `invalid_provider`, H1 as `incompatible_version`.
 */
export function checkCgpSession(session: CgpSession): void {
  const violations = cgpHandshakeViolations(
    {
      protocol_version: session.protocolVersion,
      provider: session.info,
      capabilities: session.capabilities,
    },
    CGP_PROTOCOL_VERSION,
  );
  const first = violations[0];
  if (first === undefined) return;
  const code =
    first.rule === "C5"
      ? "egress_scope_inconsistent"
      : first.rule === "H1"
        ? "incompatible_version"
        : "invalid_provider";
  throw hostError(
    code,
    `provider "${session.id}" refused at the handshake: ${violations.map((v) => `${v.message} (${v.rule})`).join("; ")}`,
    { details: { providerId: session.id, violations } },
  );
}

const KINDS: ReadonlySet<string> = new Set(FRAME_KINDS);

/**
 * The session as a {@link ContextProvider}, for the registry's listing and
 * shutdown: its info and capabilities in the ocp/1 shapes (unknown kinds
 * left out). Queries go through the session, never through `query` here.
 */
export function providerOfSession(session: CgpSession): ContextProvider {
  const info: ProviderInfo = {
    name: session.info.name,
    version: session.info.version,
    data_flow: {
      reads: session.info.data_flow.reads,
      writes: session.info.data_flow.writes,
      egress: session.info.data_flow.egress,
    },
  };
  const capabilities: Capabilities = {
    query: {
      kinds: session.capabilities.query.kinds.filter((k) => KINDS.has(k)) as FrameKind[],
      filters: [],
    },
    upsert: false,
    graph: session.capabilities.graph,
    subscribe: false,
    embeddings_fingerprint: session.capabilities.embeddings_fingerprint ?? null,
    correlation: session.capabilities.correlation,
  };
  return {
    id: session.id,
    info,
    capabilities,
    protocolVersion: session.protocolVersion,
    query: () =>
      Promise.reject(
        hostError("invalid_option", "a contextgraph/1 session is queried by the host"),
      ),
    shutdown: () => session.shutdown(),
  };
}

/**
 * An accepted CGP frame in the ocp/1 frame shape that `compose` fences (R3):
 * only a frame of a known kind with inline content (`full` or `compact`).
 * A `reference` frame (no content) and an opaque kind (U2) have none.
 */
export function composable(frame: CgpFrame): ContextFrame | undefined {
  if (isOpaqueFrame(frame) || typeof frame.content !== "string") return undefined;
  return {
    id: frame.id,
    kind: frame.kind as FrameKind,
    title: frame.title,
    content: frame.content,
    uri: frame.uri ?? null,
    score: frame.score,
    token_cost: frame.token_cost,
    valid_from: frame.valid_from ?? null,
    valid_to: frame.valid_to ?? null,
    recorded_at: frame.recorded_at ?? null,
    provenance: frame.provenance.map((p) => ({
      type: p.type,
      uri: p.uri ?? null,
      range: p.range ?? null,
      digest: p.digest ?? null,
    })),
    citation_label: frame.citation_label ?? null,
    relations: frame.relations.map((r) => ({
      rel: r.rel,
      target_uri: r.target_uri,
      display_name: r.display_name ?? null,
    })),
  };
}

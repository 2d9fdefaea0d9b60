/**
 * One provider, both families: what a provider written with the kit adds so
 * that it is served under `contextgraph/1` as well as `ocp/1`, and the
 * start-up check of those declarations (C5, E1, P5). Everything here is
 * optional: a plain {@link ContextProvider} is served under both families
 * as it is, the kit computing what CGP asks of every frame (B3 costs, D1
 * digests) and answering `verify` with `unknown` for every frame.
 */

import {
  type Capabilities,
  CapabilitiesSchema,
  type DataFlow,
  DataFlowSchema,
  type QueryCapability,
} from "./capability.js";
import { fingerprintDimensions } from "./cgp/formats.js";
import { cgpHandshakeViolations } from "./cgp/handshake.js";
import type { Representation } from "./cgp/vocabulary.js";
import { errorFactory, type OcpError } from "./errors.js";
import { CGP_PROTOCOL_VERSION, type ProtocolFamily } from "./family.js";
import type { ContextProvider, QueryOptions } from "./provider.js";

/** A frame identity (SPEC §6.3): what a `verify` request names, never a body (V1). */
export interface FrameIdentity {
  readonly provider_id: string;
  readonly frame_id: string;
  readonly content_digest?: string | null | undefined;
}

/** One answer of a provider's {@link DualProvider.verify}, for one identity it was asked about. */
export interface VerifyAnswer {
  /** The frame asked about: matched on `frame_id` and `content_digest`. */
  readonly frame: FrameIdentity;
  readonly status: "valid" | "stale" | "gone" | "unknown";
  /** V4: on `stale`, the provider's current digest (never a body). */
  readonly replacement_digest?: string | null | undefined;
}

/** What a provider declares only under `contextgraph/1`. */
export interface CgpDeclarations {
  /**
   * §4.1 egress scopes of everything the provider serves. C5: an off-machine
   * scope (anything but `local-only`) with `data_flow.egress: false` is a
   * contradiction, refused when the provider is built or served.
   */
  readonly egressScopes?: readonly string[];
  /** E1: the embedding space the provider indexes, `<model-id>/<dimensions>[/<normalization>]`. */
  readonly embeddingsFingerprint?: string;
  /**
   * P5: the representations it serves (default `["full"]`); `compact` or
   * `reference` needs `resolve: true` (SPEC §6.4.1).
   */
  readonly representations?: readonly Representation[];
  readonly resolve?: boolean;
}

/**
 * The options a served provider's `query` and `verify` get: the family of
 * the session the request came in, so a provider may add what that family
 * asks (a CGP frame's `content_digest`, `valid_from`, its own token count as
 * `canonical_token_cost`). The kit does the rest either way.
 */
export interface ServedQueryOptions extends QueryOptions {
  readonly family?: ProtocolFamily;
}

/**
 * A {@link ContextProvider} that may declare more for `contextgraph/1`. Its
 * `query` answers `ocp/1` frames; frames may also carry CGP members
 * (`content_digest`, `valid_from`, `canonical_token_cost` with
 * `tokenizer_ref`, a `compact` representation …) when `options.family` is
 * `contextgraph/1`.
 */
export interface DualProvider extends ContextProvider {
  readonly cgp?: CgpDeclarations;
  /**
   * V1–V4: whether the frames named are still what this provider serves,
   * compared against the digests it serves now. Declaring it sets
   * `capabilities.verify`. An identity left unanswered is `unknown` (V2).
   */
  verify?(
    frames: readonly FrameIdentity[],
    options?: ServedQueryOptions,
  ): Promise<readonly VerifyAnswer[]>;
}

/** The codes of a provider the kit cannot serve (a local error, raised at start-up). */
export type KitErrorCode = "invalid_provider";

/** The declarations of a provider, checked and with their defaults. */
export interface CheckedDeclarations {
  readonly egressScopes: readonly string[];
  readonly embeddingsFingerprint: string | undefined;
  /** E1: the dimension of the fingerprint, when one is declared. */
  readonly dimensions: number | undefined;
  readonly representations: readonly Representation[];
  readonly resolve: boolean;
  readonly verify: boolean;
}

const kitError = errorFactory<KitErrorCode>();

function invalid(rule: string, message: string): OcpError<KitErrorCode> {
  return kitError("invalid_provider", `${rule}: ${message}`, { details: { rule } });
}

/**
 * Checks what `provider` declares for `contextgraph/1`, once, before it
 * serves anything: the ack it will send must keep `cgpHandshakeViolations`
 * (H2 a name and version, C5 no off-machine egress scope with `egress:
 * false`, U3 a custom scope namespaced, `compact`/`reference` only with
 * `resolve`), and E1 its fingerprint follows the grammar.
 *
 * @throws {OcpError} `invalid_provider`, `details.rule` naming the rule.
 */
export function checkDeclarations(provider: DualProvider): CheckedDeclarations {
  const cgp = provider.cgp ?? {};
  const egressScopes = [...(cgp.egressScopes ?? [])];
  const representations: Representation[] = [...(cgp.representations ?? ["full"])];
  if (!representations.includes("full")) representations.unshift("full");
  const resolve = cgp.resolve ?? false;
  // The ack this provider will send, judged by the one handshake rulebook (H2, C5, U3, §6.4.1).
  const [broken] = cgpHandshakeViolations(
    {
      protocol_version: CGP_PROTOCOL_VERSION,
      provider: {
        name: provider.info.name,
        version: provider.info.version,
        data_flow: { ...provider.info.data_flow, egress_scopes: egressScopes },
      },
      capabilities: { representations, resolve },
    },
    CGP_PROTOCOL_VERSION,
  );
  if (broken !== undefined) {
    throw invalid(broken.rule, `provider "${provider.info.name}": ${broken.message}`);
  }
  let dimensions: number | undefined;
  const fingerprint = cgp.embeddingsFingerprint ?? provider.capabilities.embeddings_fingerprint;
  if (fingerprint !== undefined && fingerprint !== null) {
    dimensions = fingerprintDimensions(fingerprint);
    if (dimensions === undefined || dimensions <= 0) {
      throw invalid(
        "E1",
        `embeddings fingerprint "${fingerprint}" does not follow <model-id>/<dimensions>[/<normalization>]`,
      );
    }
  }
  return {
    egressScopes,
    embeddingsFingerprint: fingerprint ?? undefined,
    dimensions,
    representations,
    resolve,
    verify: typeof provider.verify === "function",
  };
}

/**
 * A provider as its author writes it for {@link defineProvider}: what is
 * not said takes its default (no data flow, no capability, a `shutdown`
 * that does nothing).
 */
export type ProviderSpec = Omit<DualProvider, "info" | "capabilities" | "shutdown"> & {
  readonly info: {
    readonly name: string;
    readonly version: string;
    readonly data_flow?: Partial<DataFlow>;
  };
  readonly capabilities?: Partial<Omit<Capabilities, "query">> & {
    readonly query?: Partial<QueryCapability>;
  };
  shutdown?(): Promise<void>;
};

/**
 * Builds a provider for both families from its parts: defaults filled in,
 * its CGP declarations checked at once ({@link checkDeclarations}), so a
 * contradictory declaration is an `invalid_provider` error here, not a
 * surprise at the first handshake.
 */
export function defineProvider(spec: ProviderSpec): DualProvider {
  const provider: DualProvider = {
    ...spec,
    info: {
      name: spec.info.name,
      version: spec.info.version,
      data_flow: DataFlowSchema.parse(spec.info.data_flow ?? {}),
    },
    capabilities: CapabilitiesSchema.parse(spec.capabilities ?? {}),
    shutdown: spec.shutdown ?? (async () => {}),
  };
  checkDeclarations(provider);
  return provider;
}

/**
 * V1–V4 from the digests a provider serves now: for each identity,
 * `current(frame_id)` is the digest of what that frame holds now, or
 * `undefined` when it is no longer served (`gone`). Equal to the presented
 * digest is `valid`, different is `stale` with the current digest, nothing
 * presented is `unknown`.
 */
export function verdictsFrom(
  frames: readonly FrameIdentity[],
  current: (frameId: string) => string | undefined,
): VerifyAnswer[] {
  return frames.map((frame) => {
    const now = current(frame.frame_id);
    if (now === undefined) return { frame, status: "gone" };
    if (!frame.content_digest) return { frame, status: "unknown" };
    return now === frame.content_digest
      ? { frame, status: "valid" }
      : { frame, status: "stale", replacement_digest: now };
  });
}

/**
 * `@ocp/types/kit`: the provider kit and the shared audit. Providers guard
 * their answers with {@link guardResult} (served by `serveStdio` and the HTTP
 * server by default); the host and the suite judge answers with
 * {@link auditAnswer}; all three count tokens with {@link countTokens}. Needs
 * the `gpt-tokenizer` peer.
 *
 * One provider, both families: a provider ({@link DualProvider}, built with
 * {@link defineProvider} or not) is served under `ocp/1` as it is and under
 * `contextgraph/1` through a {@link CgpResponder}, the family chosen by each
 * host's handshake.
 */
export {
  type Audit,
  type AuditOptions,
  type AuditVerdict,
  type AuditViolation,
  auditAnswer,
  type CostAuditFigures,
  type CostViolation,
  costViolations,
} from "./audit.js";
export { type Budget, type GuardOptions, guardAnswer, guardResult, packFrames } from "./guard.js";
export {
  type CgpGuardOptions,
  type CgpQueryLike,
  cgpAnswer,
  providerQuery,
  type Refusal,
  refuseCgpQuery,
  validAt,
} from "./kit-cgp-answer.js";
export {
  type CgpDeclarations,
  type CheckedDeclarations,
  checkDeclarations,
  type DualProvider,
  defineProvider,
  type FrameIdentity,
  type KitErrorCode,
  type ProviderSpec,
  type ServedQueryOptions,
  type VerifyAnswer,
  verdictsFrom,
} from "./kit-cgp-provider.js";
export {
  type CgpReply,
  type CgpRequest,
  CgpResponder,
  cgpErrorReply,
  encodeCgp,
} from "./kit-cgp-session.js";
export { MAX_VERIFY_FRAMES } from "./limits.js";
export { countTokens, TOKENIZER } from "./tokens.js";

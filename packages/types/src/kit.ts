/**
 * `@ocp/types/kit`: the provider kit and the shared audit. Providers guard
 * their answers with {@link guardResult} (served by `serveStdio` and the HTTP
 * server by default); the host and the suite judge answers with
 * {@link auditAnswer}; all three count tokens with {@link countTokens}. Needs
 * the `gpt-tokenizer` peer.
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
export { countTokens, TOKENIZER } from "./tokens.js";

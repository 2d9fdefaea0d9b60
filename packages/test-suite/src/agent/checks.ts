import { agentA2AFallback } from "./a2a-check.js";
import { agentAuthorship } from "./authority-checks.js";
import { agentCompression } from "./compression-checks.js";
import type { AgentCheck } from "./context.js";
import {
  agentCollectiveQuery,
  agentKnowledgeUpdates,
  agentSignatures,
  agentVisibility,
} from "./knowledge-checks.js";
import { agentSealedNoLeak, agentSealedRead } from "./sealing-checks.js";
import { agentPresence, agentRegistration, agentVote } from "./team-checks.js";

/** Every agent check, in report order. */
export const AGENT_CHECKS: readonly AgentCheck[] = [
  agentRegistration,
  agentCollectiveQuery,
  agentSignatures,
  agentVisibility,
  agentKnowledgeUpdates,
  agentAuthorship,
  agentCompression,
  agentSealedRead,
  agentSealedNoLeak,
  agentVote,
  agentPresence,
  agentA2AFallback,
];

/** The names of every agent check. */
export const AGENT_CHECK_NAMES: readonly string[] = AGENT_CHECKS.map((check) => check.spec.name);

import { type ErrorFactory, errorFactory } from "@ocp/types";

/** Codes of the errors the agent runtime raises (listed in the package README). */
export const AGENT_ERROR_CODES = {
  sync_checksum_mismatch: "sync: a page's SHA-256 checksum differs from its content",
  sync_failed: "sync: the peer refused, timed out, or answered out of order",
  update_skipped:
    "knowledge: a NodeUpdate names a deleted node, or an unknown one whose changes are not a whole node",
  duplicate_vote: "consensus: this agent already voted on the proposal; the first vote counts",
  vote_rejected: "consensus: the vote is unsigned, forged, late, or for an unknown proposal",
  unknown_proposal: "consensus: no proposal with this id",
  proposal_closed: "consensus: the proposal was already decided",
  not_connected: "agent: the hub connection is closed",
  discovery_unavailable: "agent: the agent's link has no directory to search (§7.3 needs a hub)",
  limit_exceeded: "agent: a runtime limit (subscriptions, pending items, timeouts) was reached",
  invalid_allowed_peer:
    "peers: an `allowedPeers` entry is not a verified profile or an `{id, publicKey, team?}` with a 32-byte key",
  peer_not_allowed:
    "peers: registration refused (4002): the agent is not on the listener's allow list (none configured: nobody is)",
  peer_key_mismatch:
    "peers: registration refused (4002): the id is admitted with another key (a squatter; the listed agent still gets in)",
  peer_already_connected:
    "peers: registration refused (4002): the id has an open connection already",
  authorship_invalid:
    "knowledge: an item's ocpAuthorship is malformed, by an agent with no known key, or does not verify",
  not_author:
    "knowledge: the writer is neither the item's author (createdBy) nor an editor its author listed",
  author_changed: "knowledge: a change of an item's createdBy (nobody may change it)",
  editors_changed: "knowledge: an editor changes an item's ocpEditors (only its author may)",
  sealing_key_unknown:
    "sealing: a recipient (or this agent) publishes no encryption key in a verified profile; nothing was sent",
  sealed_recipient_not_allowed:
    "sealing: a message carrying a private shared node is addressed to an agent its sharedWith does not name",
  sealed_broadcast: "sealing: a sensitive message must name its recipients, not broadcast",
  sealed_signature_invalid:
    "sealing: a sealed message's signature does not verify over the sealed bytes (refused, not decrypted)",
  sealed_envelope_invalid: "sealing: a sealed message lacks a valid ocpSealed declaration",
  sealed_not_for_us: "sealing: a sealed message holds no wrapped key for this agent",
  sealed_tampered:
    "sealing: a wrapped key or the ciphertext fails authentication (changed, or sealed for a key this agent does not hold)",
  sealed_access_mismatch:
    "sealing: the decrypted payload carries other nodes' access fields than ocpSealed declared",
} as const;

/** A stable code of an agent runtime error. */
export type AgentErrorCode = keyof typeof AGENT_ERROR_CODES;

/** Raises an agent runtime error: only an {@link AgentErrorCode} compiles. */
export const agentError: ErrorFactory<AgentErrorCode> = errorFactory<AgentErrorCode>();

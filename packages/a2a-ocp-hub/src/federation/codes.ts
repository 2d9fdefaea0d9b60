/**
 * The codes federation adds to the hub's (docs/reference.md lists them):
 * refusals of a hub link, of what a peer hub sends and of what may not leave.
 * A refusal the message layer already names (`invalid_signature`,
 * `replay_detected`, `expired`, `not_author`, …) keeps its own code.
 */
export const FEDERATION_ERROR_CODES = {
  federation_unknown_peer:
    "federation: a hub link from a hub id or key that the federate file does not list (or federation is off)",
  federation_spoofed:
    "federation: a peer hub vouched for or sent as an agent it does not own (a local agent, another peer's, outside its prefixes)",
  federation_withheld:
    "federation: what may not cross the boundary (a team, workspace or private node, a card that is not public, a query or event subscription the peer did not opt in to)",
  federation_over_budget:
    "federation: a peer hub went over its per-organisation rate or byte budget",
  federation_frame_invalid: "federation: a hub-to-hub frame is malformed or of an unknown type",
  federation_unsupported:
    "federation: the hub's store cannot hold a federation outbox (a JetStream store without the cluster options)",
  federation_standby:
    "federation: clustered hubs: a hub link offered to a hub of the cluster that does not hold that peer's link (another one does)",
} as const;

export type FederationErrorCode = keyof typeof FEDERATION_ERROR_CODES;

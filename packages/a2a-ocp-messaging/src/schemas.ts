/** `@ocp/a2a-ocp-messaging/schemas`: the zod schema of every message, payload and hub frame. */
export {
  CompressedMessageSchema,
  CompressionSchema,
  CustomMessageTypeSchema,
  EncryptedMessageSchema,
  EncryptedPayloadSchema,
  KnownMessageTypeSchema,
  MessageTypeSchema,
  PrioritySchema,
  RecipientKeySchema,
  RecipientsSchema,
  SignatureSchema,
} from "./envelope.js";
export {
  AgentControlSchema,
  DiscoveryQueryPayloadSchema,
  HubAckSchema,
  HubAnnounceSchema,
  HubBatchSchema,
  HubControlSchema,
  HubDeliveredSchema,
  HubDeliverSchema,
  HubDiscoveryQuerySchema,
  HubDiscoveryResultSchema,
  HubFrameSchema,
  HubIdentitySchema,
  HubLookupSchema,
  HubProfileSchema,
  HubRejectSchema,
  HubSendSchema,
} from "./hub-protocol.js";
export {
  AgentProfileSchema,
  PublicKeySchema,
} from "./identity.js";
export { messageJsonSchema } from "./json-schema.js";
export {
  CustomMessageSchema,
  CustomPayloadSchema,
  KnownMessageSchema,
  WireMessageSchema,
} from "./messages.js";
export {
  AwarenessBeaconPayloadSchema,
  AwarenessQueryPayloadSchema,
  AwarenessResponsePayloadSchema,
  AwarenessUpdatePayloadSchema,
} from "./payloads/awareness.js";
export {
  CapabilityAnnouncePayloadSchema,
  CapabilityConfirmPayloadSchema,
  OcpFeatureSchema,
} from "./payloads/capability.js";
export {
  CollectiveQueryPayloadSchema,
  CollectiveResponsePayloadSchema,
  CollectiveSynthesisPayloadSchema,
  QueryFindingSchema,
} from "./payloads/collective.js";
export {
  AgentUriSchema,
  CountSchema,
  IdSchema,
  MetadataSchema,
  TimestampSchema,
  UnitIntervalSchema,
} from "./payloads/common.js";
export {
  ConsensusAchievedPayloadSchema,
  ConsensusProposePayloadSchema,
  ConsensusTimeoutPayloadSchema,
  ConsensusVotePayloadSchema,
  VoteCountsSchema,
} from "./payloads/consensus.js";
export {
  EventNotificationPayloadSchema,
  EventPublishPayloadSchema,
  EventSubscribePayloadSchema,
  EventUnsubscribePayloadSchema,
} from "./payloads/events.js";
export {
  BatchedKnowledgeStreamPayloadSchema,
  KnowledgeConflictPayloadSchema,
  KnowledgeControlPayloadSchema,
  KnowledgeEdgeSchema,
  KnowledgeNodeSchema,
  KnowledgeStreamMessagePayloadSchema,
  KnowledgeStreamPayloadSchema,
  KnowledgeSubscribePayloadSchema,
  KnowledgeSyncRequestPayloadSchema,
  KnowledgeSyncResponsePayloadSchema,
  KnowledgeUnsubscribePayloadSchema,
  KnowledgeUpdatePayloadSchema,
  NodeUpdateSchema,
  VisibilitySchema,
} from "./payloads/knowledge.js";
export {
  SyncAcceptPayloadSchema,
  SyncCompletePayloadSchema,
  SyncConflictPayloadSchema,
  SyncOfferPayloadSchema,
  SyncRequestPayloadSchema,
} from "./payloads/sync.js";

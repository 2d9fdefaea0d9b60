import type { KnownMessageType, PayloadInit } from "../../src/index.js";

export const ALICE = "a2a://claude-code-alice";
export const BOB = "a2a://claude-code-bob";
export const CAROL = "a2a://claude-code-carol";

export const NODE = {
  id: "node-789",
  type: "code.solution",
  title: "WebSocket memory leak fix",
  data: { code: "ws.on('close', () => { connections.delete(id); })", tested: true },
  confidence: 0.92,
  timestamp: "2025-10-13T10:25:00Z",
  createdBy: ALICE,
  tags: ["websocket", "memory-leak", "fix"],
  visibility: "team" as const,
  sharedWith: [BOB],
};

export const EDGE = {
  id: "edge-1",
  source: "node-789",
  target: "node-790",
  relationship: "fixes",
  weight: 0.5,
};

const BEACON = {
  status: "blocked" as const,
  currentContext: {
    task: "Implement OAuth",
    file: "src/auth/oauth.ts",
    blockedOn: "API credentials",
  },
  availability: "available" as const,
};

const EVENT = {
  eventId: "evt-123",
  eventType: "code.deployed",
  eventData: { service: "api-gateway", version: "2.1.0" },
  timestamp: "2025-10-13T11:30:00Z",
  source: "a2a://claude-code-dave",
  severity: "info" as const,
};

const VOTES = { approve: 2, reject: 1, abstain: 0 };

/** One valid payload for every known message type. */
export const SAMPLE_PAYLOADS: { [T in KnownMessageType]: PayloadInit<T> } = {
  "ocp.knowledge.stream": {
    streamId: "stream-456",
    nodes: [NODE],
    edges: [EDGE],
    isIncremental: true,
    sequenceNumber: 42,
    checksum: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  },
  "ocp.knowledge.subscribe": {
    subscriptionId: "sub-123",
    filters: { domains: ["backend"], tags: ["critical"], minConfidence: 0.8 },
    deliveryMode: "push",
    batchSize: 10,
  },
  "ocp.knowledge.unsubscribe": { subscriptionId: "sub-123" },
  "ocp.knowledge.sync.request": {
    syncId: "sync-1",
    versionVector: { [ALICE]: 3 },
    filters: { domains: ["backend"], updatedAfter: "2025-10-01T00:00:00Z" },
  },
  "ocp.knowledge.sync.response": {
    syncId: "sync-1",
    nodes: [NODE],
    edges: [],
    versionVector: { [ALICE]: 4 },
    isComplete: true,
    checksum: "abc",
  },
  "ocp.knowledge.update": {
    updates: [{ nodeId: "node-789", changes: { confidence: 0.95 }, changeType: "modified" }],
    deletions: ["node-1"],
    newEdges: [EDGE],
    deletedEdges: ["edge-0"],
  },
  "ocp.knowledge.conflict": {
    conflictId: "c-1",
    nodeId: "node-789",
    localVersion: NODE,
    remoteVersion: { ...NODE, confidence: 0.5 },
    conflictType: "content",
  },
  "ocp.knowledge.control": { streamId: "stream-456", action: "pause" },
  "ocp.collective.query": {
    queryId: "query-abc",
    query: "What's our approach to authentication?",
    structuredQuery: { intent: "find_information", domains: ["backend"], keywords: ["auth"] },
    timeout: 5000,
    minResponses: 3,
  },
  "ocp.collective.response": {
    queryId: "query-abc",
    findings: [{ node: NODE, relevance: 0.7, excerpt: "delete on close" }],
    confidence: 0.8,
    processingTime: 12,
    metadata: { nodesSearched: 40, relevanceScores: [0.7] },
  },
  "ocp.collective.synthesis": {
    queryId: "query-abc",
    answer: "JWT with refresh tokens",
    confidence: 0.75,
    consensus: ["JWT"],
    dissent: ["session length"],
    sources: [ALICE, BOB],
    timestamp: "2025-10-13T10:36:00Z",
  },
  "ocp.consensus.propose": {
    proposalId: "prop-456",
    topic: "Switch to PostgreSQL",
    proposal: { decision: "Migrate" },
    votingPeriod: 86400,
    requiredVotes: 3,
    votingRule: "threshold",
    threshold: 0.66,
  },
  "ocp.consensus.vote": { proposalId: "prop-456", vote: "approve", votedBy: BOB },
  "ocp.consensus.achieved": {
    proposalId: "prop-456",
    outcome: "approved",
    votes: VOTES,
    voters: [ALICE, BOB, CAROL],
    achievedAt: "2025-10-14T11:00:00Z",
  },
  "ocp.consensus.timeout": { proposalId: "prop-456", votes: VOTES, reason: "quorum not reached" },
  "ocp.awareness.beacon": BEACON,
  "ocp.awareness.update": { changes: { status: "working" } },
  "ocp.awareness.query": {
    queryId: "aq-1",
    filters: { status: ["blocked"], availability: ["available"] },
  },
  "ocp.awareness.response": { queryId: "aq-1", agents: [{ agentId: CAROL, awareness: BEACON }] },
  "ocp.event.publish": EVENT,
  "ocp.event.subscribe": { subscriptionId: "esub-1", eventTypes: ["code.deployed"] },
  "ocp.event.unsubscribe": { subscriptionId: "esub-1" },
  "ocp.event.notification": { subscriptionId: "esub-1", event: EVENT },
  "ocp.sync.request": { syncId: "s-1", scope: ["knowledge", "awareness"], priority: "high" },
  "ocp.sync.offer": { syncId: "s-1", dataSize: 2048, dataTypes: ["knowledge"], estimatedTime: 1.5 },
  "ocp.sync.accept": { syncId: "s-1", accepted: true },
  "ocp.sync.complete": {
    syncId: "s-1",
    bytesTransferred: 2048,
    itemsSynced: 12,
    conflicts: 0,
    duration: 350,
  },
  "ocp.sync.conflict": {
    syncId: "s-1",
    conflicts: [{ type: "knowledge", itemId: "node-789", localVersion: 1, remoteVersion: 2 }],
  },
  "capability.announce": {
    features: ["knowledge_streaming", "collective_query"],
    version: "1.0.0",
  },
  "capability.confirm": { supportedFeatures: ["knowledge_streaming"], version: "1.0.0" },
};

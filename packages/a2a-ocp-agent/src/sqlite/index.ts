/**
 * `@ocp/a2a-ocp-agent/sqlite`: a knowledge graph and a consensus store that
 * survive restarts, in a SQLite file (better-sqlite3, an optional peer of
 * this package: install it beside it to use this entry).
 */
export { SqliteConsensusStore } from "./sqlite-consensus.js";
export { SqliteGraph } from "./sqlite-graph.js";

/**
 * `@ocp/transport-stdio/process`: the process-group and stderr helpers that
 * `spawnStdioProvider` is built on, for code that runs provider children of
 * its own (a conformance suite, a supervisor) and wants the same guarantees:
 * `spawnInGroup` starts a child leading its own process group with a scrubbed
 * environment, `killGroup` ends everything it started, `trackGroup` makes
 * sure no group outlives this process, and a `TailBuffer` keeps a bounded
 * tail of the child's stderr as evidence. POSIX only (process groups).
 */
export { type ChildCommand, spawnInGroup } from "./child.js";
export { killGroup, trackGroup, untrackGroup } from "./process-groups.js";
export { TailBuffer } from "./tail-buffer.js";

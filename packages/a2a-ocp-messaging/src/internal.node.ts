/**
 * `./internal` as Node loads it (the `node` export condition): loads the root
 * entry's Node form first, so the native Ed25519 is preferred whichever entry
 * a process imports first.
 */
import "./index.node.js";

export * from "./internal.js";

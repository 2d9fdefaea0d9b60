export { type Chunk, chunkFile, chunkMarkdown, chunkSource, isMarkdown } from "./chunk.js";
export { type BuildOptions, Corpus, type Entry, type Hit, type IndexProgress } from "./corpus.js";
export * as limits from "./limits.js";
export { DemoProvider, type DemoProviderOptions, SERVED_KINDS } from "./provider.js";
export { countTokens, TOKEN_ENCODING } from "./tokens.js";
export { type FoundFile, isBinaryFile, walk } from "./walk.js";

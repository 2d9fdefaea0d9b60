/**
 * Every limit of the demo provider, in one place. Each is finite; none is
 * "0 means unlimited".
 */

/** Files larger than this are skipped when indexing (bytes). */
export const MAX_FILE_BYTES = 1024 * 1024;

/** Indexing stops (with a warning) after this many files. */
export const MAX_FILES = 100_000;

/** Bytes read from the head of a file to decide whether it is binary. */
export const BINARY_SNIFF_BYTES = 8192;

/** Lines per snippet frame when source is split into windows. */
export const SNIPPET_LINES = 40;

/** A symbol frame longer than this is cut; the rest becomes snippet frames. */
export const MAX_SYMBOL_LINES = 80;

/** A Markdown section longer than this is split into parts. */
export const MAX_SECTION_LINES = 80;

/** Search hits considered per query before budgeting. */
export const MAX_CANDIDATES = 200;

/** Score multiplier for frames from an anchored file, before normalisation. */
export const ANCHOR_BOOST = 1.5;

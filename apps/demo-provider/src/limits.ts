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

/**
 * A section over the budget left is cut to its best-fitting part only when at
 * least this many tokens are left; smaller scraps are not worth a frame.
 */
export const MIN_PART_TOKENS = 16;

/** Sections tried for a part per query (each try tokenizes the section's lines). */
export const MAX_PART_ATTEMPTS = 8;

/** A part smaller than this (a lone heading, a brace) is not served. */
export const MIN_PART_CONTENT_TOKENS = 8;

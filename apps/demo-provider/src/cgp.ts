/**
 * What the demo provider adds under `contextgraph/1`: frames costed by B3
 * (the o200k_base count kept as `canonical_token_cost`), with `content_digest`
 * (D1), `valid_from` (the file's modification time, F4) and a file
 * provenance digest of the exact bytes the range cites (F5); and `verify`
 * answered from the files as they are now (V1–V4).
 */
import { readFile } from "node:fs/promises";
import type { ContextFrame } from "@ocp/types";
import { canonicalTokenCost, sha256Digest } from "@ocp/types/cgp";
import type { FrameIdentity, VerifyAnswer } from "@ocp/types/kit";
import type { Corpus, Entry } from "./corpus.js";
import { countTokens, TOKEN_ENCODING } from "./tokens.js";

/**
 * F5 (SPEC §6.2): the digest of the bytes `L<start>-<end>` address in a file
 * whose bytes are the UTF-8 of its text: the lines served, each with the
 * `\n` that ends it on disk (the last line of a file may have none).
 */
export function citedDigest(content: string, end: number, fileLines: number): string {
  return sha256Digest(end < fileLines ? `${content}\n` : content);
}

/** The CGP members of a frame made from `entry`, serving `content` (lines up to `end`). */
export function cgpFrame(
  frame: ContextFrame,
  entry: Entry,
  content: string,
  end: number,
): ContextFrame {
  const provenance = frame.provenance.map((link) => ({
    ...link,
    digest: citedDigest(content, end, entry.fileLines),
  }));
  return Object.assign(
    { ...frame, token_cost: canonicalTokenCost(content), provenance },
    {
      canonical_token_cost: countTokens(content),
      tokenizer_ref: TOKEN_ENCODING,
      content_digest: sha256Digest(content),
      valid_from: entry.recordedAt,
    },
  );
}

/** The lines a frame cites as the file holds them now; `gone` when the file or the lines are. */
async function currentContent(
  path: string,
  start: number,
  end: number,
  files: Map<string, Promise<string | undefined>>,
): Promise<string | "gone" | undefined> {
  let text = files.get(path);
  if (text === undefined) {
    text = readFile(path, "utf8").catch((error: NodeJS.ErrnoException) =>
      error.code === "ENOENT" ? "\u0000gone" : undefined,
    );
    files.set(path, text);
  }
  const read = await text;
  if (read === undefined) return undefined;
  if (read === "\u0000gone") return "gone";
  const lines = read.split("\n");
  if (start > lines.length) return "gone";
  return lines.slice(start - 1, end).join("\n");
}

/**
 * V1–V4 from the files as they are now: the presented `content_digest`
 * against the digest of the lines the frame id cites: equal is `valid`,
 * different is `stale` with the current digest, a deleted file (or lines
 * past its end) is `gone`; an id naming no file of the corpus, an unreadable
 * file or an identity without a digest is `unknown`. Each file is read once.
 */
export async function verifyFrames(
  corpus: Corpus,
  frames: readonly FrameIdentity[],
): Promise<VerifyAnswer[]> {
  const files = new Map<string, Promise<string | undefined>>();
  return Promise.all(
    frames.map(async (frame): Promise<VerifyAnswer> => {
      const cited = corpus.cited(frame.frame_id);
      if (cited === undefined) return { frame, status: "unknown" };
      const content = await currentContent(cited.path, cited.start, cited.end, files);
      if (content === "gone") return { frame, status: "gone" };
      if (content === undefined || !frame.content_digest) return { frame, status: "unknown" };
      const digest = sha256Digest(content);
      return digest === frame.content_digest
        ? { frame, status: "valid" }
        : { frame, status: "stale", replacement_digest: digest };
    }),
  );
}

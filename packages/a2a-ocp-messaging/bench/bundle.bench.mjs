// pnpm bench: what a browser downloads. Bundles a program that creates,
// signs and verifies messages (and each whole entry point) with esbuild, as a
// browser app's bundler would (minified, browser platform, ESM, the package
// resolved by its name through its export map), and prints the raw and
// gzipped size of each beside `@noble/ed25519` alone, with the goal of issue
// 41: the browser entry's create+sign+verify program at most 40 KB gzipped.
// Sizes do not vary from run to run (no rounds needed); they change with the
// code and the dependencies' versions. `--json` prints the figures as JSON
// (test/bundle-size.test.ts reads them).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The goal: the browser entry's create+sign+verify program, gzipped. */
export const GOAL_GZIP_BYTES = 40 * 1024;

/** A program that creates identities and profiles, creates, signs and verifies a message. */
const program = (entry) => `
import {
  createAgentProfile, createMessage, generateIdentity, keyLookupFromProfiles, signObject, verifyMessage,
} from "${entry}";
const alice = generateIdentity("a2a://alice");
const lookupKey = keyLookupFromProfiles([createAgentProfile(alice)]);
const message = createMessage({
  type: "ocp.consensus.vote", from: alice.id, to: "a2a://bob",
  payload: { proposalId: "p-1", vote: "approve", votedBy: alice.id },
});
export const verdict = verifyMessage(signObject(message, alice.secretKey), lookupKey);
`;

const ARMS = [
  {
    name: "./browser: create+sign+verify",
    code: program("@ocp/a2a-ocp-messaging/browser"),
    goal: GOAL_GZIP_BYTES,
  },
  { name: "./browser: whole entry", code: 'export * from "@ocp/a2a-ocp-messaging/browser";' },
  { name: "root: create+sign+verify", code: program("@ocp/a2a-ocp-messaging") },
  { name: "root: whole entry", code: 'export * from "@ocp/a2a-ocp-messaging";' },
  {
    name: "@noble/ed25519 alone",
    code: 'export { getPublicKey, signAsync, utils, verifyAsync } from "@noble/ed25519";',
    baseline: true,
  },
];

/** Bundles `code` for the browser: minified bytes, gzipped bytes, and the bytes zod contributes. */
async function measure(code) {
  const result = await build({
    stdin: { contents: code, resolveDir: packageDir, loader: "js" },
    absWorkingDir: packageDir,
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const bytes = result.outputFiles[0].contents;
  const inputs = Object.values(result.metafile.outputs)[0].inputs;
  let zod = 0;
  for (const [path, input] of Object.entries(inputs)) {
    if (/(^|\/)node_modules\/(\.pnpm\/zod@[^/]+\/node_modules\/)?zod\//.test(path)) {
      zod += input.bytesInOutput;
    }
  }
  return { raw: bytes.length, gzip: gzipSync(bytes).length, zod };
}

const figures = [];
for (const arm of ARMS) figures.push({ ...arm, code: undefined, ...(await measure(arm.code)) });

if (process.argv.includes("--json")) {
  console.log(JSON.stringify(figures));
} else {
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`.padStart(9);
  const baseline = figures.find((figure) => figure.baseline);
  console.log(
    `a2a-ocp-messaging bundle bench: esbuild, minified, browser platform, gzip; node ${process.version}`,
  );
  for (const figure of figures) {
    const ratio = figure.baseline ? "" : `  ${(figure.gzip / baseline.gzip).toFixed(1)}x noble`;
    const zod = figure.zod > 0 ? `  (zod ${kb(figure.zod).trim()} raw)` : "";
    const goal =
      figure.goal === undefined
        ? ""
        : `  goal <= ${kb(figure.goal).trim()} gz: ${figure.gzip <= figure.goal ? "met" : "MISSED"}`;
    console.log(
      `${figure.name.padEnd(32)} ${kb(figure.raw)} raw ${kb(figure.gzip)} gz${ratio}${goal}${zod}`,
    );
  }
}

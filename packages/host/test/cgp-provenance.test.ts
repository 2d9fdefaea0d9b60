import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { sha256Digest } from "@ocp/types/cgp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Host } from "../src/index.js";
import { checkFileDigest } from "../src/internal.js";
import { CGP_QUERY, cgpStdio, scratch } from "./cgp-helpers.js";

const SOURCE = "line one\nline two\r\nline three\nline four\n";

let host: Host | undefined;
let tmp: Awaited<ReturnType<typeof scratch>>;
let root: string;
let file: string;
beforeEach(async () => {
  tmp = await scratch();
  root = join(tmp.dir, "repo");
  await mkdir(root);
  file = join(root, "net.rs");
  await writeFile(file, SOURCE);
});
afterEach(async () => {
  await host?.shutdown({ timeoutMs: 2_000 });
  host = undefined;
  await tmp.done();
});

describe("F5 bytes: file provenance digests re-read under trusted roots", () => {
  it("checkFileDigest hashes the exact bytes of the range (CRLF kept, each line's newline included)", async () => {
    const uri = pathToFileURL(file).href;
    const digest = sha256Digest("line two\r\nline three\n");
    expect(await checkFileDigest({ type: "file", uri, range: "L2-3", digest }, [root])).toEqual({
      status: "verified",
    });
    expect(
      await checkFileDigest({ type: "file", uri, digest: sha256Digest(SOURCE) }, [root]),
    ).toEqual({
      status: "verified",
    });
    const lie = await checkFileDigest({ type: "file", uri, range: "L2", digest }, [root]);
    expect(lie).toMatchObject({
      status: "mismatch",
      expected: digest,
      actual: sha256Digest("line two\r\n"),
    });
    expect(
      await checkFileDigest({ type: "file", uri, range: "2-3", digest }, [root]),
    ).toMatchObject({
      status: "unreadable",
    });
  });

  it("never reads outside the trusted roots, a symbolic escape and a missing file included", async () => {
    const outside = join(tmp.dir, "secret.txt");
    await writeFile(outside, "secret\n");
    const digest = sha256Digest("secret\n");
    const check = (path: string) =>
      checkFileDigest({ type: "file", uri: pathToFileURL(path).href, digest }, [root]);
    expect(await check(outside)).toMatchObject({ status: "untrusted" });
    expect(await check(join(root, "..", "secret.txt"))).toMatchObject({ status: "untrusted" });
    await symlink(outside, join(root, "link.txt"));
    expect(await check(join(root, "link.txt"))).toMatchObject({ status: "untrusted" });
    expect(await check(join(root, "missing.rs"))).toMatchObject({ status: "unreadable" });
    expect(
      await checkFileDigest({ type: "file", uri: "https://example.com/x", digest }, [root]),
    ).toMatchObject({ status: "unreadable" });
  });

  it("a real child whose file digest matches the bytes is accepted; one whose digest lies is dropped (F5)", async () => {
    host = new Host({ warn: () => undefined, legTimeoutMs: 5_000, trustedRoots: [root] });
    await host.addStdio({
      ...cgpStdio("honest", `${tmp.record}.1`, ["--file", file]),
      family: "contextgraph/1",
    });
    await host.addStdio({
      ...cgpStdio("liar", `${tmp.record}.2`, ["--file", file, "--file-lie"]),
      family: "contextgraph/1",
    });
    const fanOut = await host.queryAll(CGP_QUERY);
    expect(fanOut.accepted.map((a) => a.providerId)).toEqual(["honest", "honest"]);
    expect(fanOut.liars.map((l) => [l.providerId, l.violations.map((v) => v.rule)])).toEqual([
      ["liar", ["F5"]],
    ]);
    expect(fanOut.liars[0]?.message).toContain("does not match the bytes of");
  });

  it("without trusted roots nothing is re-read: the same lie passes the grammar and is accepted", async () => {
    host = new Host({ warn: () => undefined, legTimeoutMs: 5_000 });
    await host.addStdio({
      ...cgpStdio("liar", tmp.record, ["--file", file, "--file-lie"]),
      family: "contextgraph/1",
    });
    expect((await host.queryAll(CGP_QUERY)).accepted).toHaveLength(2);
  });
});

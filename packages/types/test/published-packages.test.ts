import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

/**
 * Every published package ships the repository's MIT LICENSE: it is in the
 * package's `files` and on disk beside its package.json, the same text. The
 * check is scripts/check-packages.mjs; this test runs it on the workspace,
 * then breaks it in a copy and expects the checker to name the package.
 */
const root = fileURLToPath(new URL("../../..", import.meta.url));
const { checkLicenses, checkSourceMaps, publishedPackages } = (await import(
  pathToFileURL(join(root, "scripts", "check-packages.mjs")).href
)) as {
  checkLicenses: (options: { root: string }) => { packages: number; problems: string[] };
  checkSourceMaps: (options: { dir: string }) => { maps: number; problems: string[] };
  publishedPackages: (root: string) => string[];
};

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/** The root LICENSE and package manifests/licences of the workspace, in a temp dir. */
function copyWorkspace(): string {
  const copy = mkdtempSync(join(tmpdir(), "ocp-licenses-"));
  copies.push(copy);
  copyFileSync(join(root, "LICENSE"), join(copy, "LICENSE"));
  cpSync(join(root, "packages"), join(copy, "packages"), {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|dist|src|test|example|bench|reference)$/.test(source),
  });
  return copy;
}

describe("published packages", () => {
  it("each ships the MIT LICENSE: in its files, on disk, the repository's text", () => {
    const license = readFileSync(join(root, "LICENSE"), "utf8");
    expect(license).toMatch(
      /^MIT License\n\nCopyright \(c\) 2026 the OCP for TypeScript contributors\n/,
    );
    const { packages, problems } = checkLicenses({ root });
    expect(packages).toBeGreaterThanOrEqual(15);
    expect(problems).toEqual([]);
  });

  it("the check names a package whose files leave LICENSE out, or whose LICENSE is missing or differs", () => {
    const copy = copyWorkspace();
    const types = join(copy, "packages", "types");
    const manifest = JSON.parse(readFileSync(join(types, "package.json"), "utf8")) as {
      files: string[];
    };
    manifest.files = manifest.files.filter((file) => file !== "LICENSE");
    writeFileSync(join(types, "package.json"), JSON.stringify(manifest));
    unlinkSync(join(copy, "packages", "host", "LICENSE"));
    writeFileSync(join(copy, "packages", "client", "LICENSE"), "All rights reserved.\n");
    const { problems } = checkLicenses({ root: copy });
    expect(problems).toContain('@ocp/types: "LICENSE" is not in the files of its package.json');
    expect(problems).toContain("@ocp/host: no LICENSE file beside its package.json");
    expect(problems).toContain("@ocp/client: its LICENSE differs from the repository's LICENSE");
    rmSync(join(copy, "LICENSE"));
    expect(checkLicenses({ root: copy }).problems).toEqual(["the repository has no LICENSE file"]);
  });

  it("issue 43: every source a built source map names is shipped (src is in files), so stack traces reach it", () => {
    let maps = 0;
    for (const dir of publishedPackages(root)) {
      const checked = checkSourceMaps({ dir });
      maps += checked.maps;
      expect(checked.problems).toEqual([]);
    }
    expect(maps).toBeGreaterThan(100);
    // A package that ships dist only: its maps name sources it does not ship.
    const pkg = mkdtempSync(join(tmpdir(), "ocp-maps-"));
    copies.push(pkg);
    cpSync(join(root, "packages", "types", "dist"), join(pkg, "dist"), { recursive: true });
    cpSync(join(root, "packages", "types", "src"), join(pkg, "src"), { recursive: true });
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "x", files: ["dist"] }));
    const problems = checkSourceMaps({ dir: pkg }).problems;
    expect(problems[0]).toMatch(
      /^x: a source map names src\/.+\.ts, which the package does not ship$/,
    );
  });

  it("npm pack puts LICENSE in the tarball of @ocp/types", () => {
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: join(root, "packages", "types"),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    const [pack] = JSON.parse(out) as [{ files: { path: string }[] }];
    expect(pack.files.map((file) => file.path)).toContain("LICENSE");
    expect(pack.files.map((file) => file.path)).toContain("src/index.ts");
  }, 60_000);
});

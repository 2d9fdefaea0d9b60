/**
 * Reading a package's README (and its docs) against the code: the marked
 * sections `<!-- name -->` … `<!-- /name -->` and the rows of their tables.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The text between `<!-- name -->` and `<!-- /name -->` of `text`; throws naming the section when a marker is missing. */
export function section(text: string, name: string): string {
  const start = text.indexOf(`<!-- ${name} -->`);
  const end = text.indexOf(`<!-- /${name} -->`);
  if (start === -1) throw new Error(`section ${name}: no <!-- ${name} --> marker`);
  if (end <= start) throw new Error(`section ${name}: no <!-- /${name} --> marker after it`);
  return text.slice(start, end);
}

export interface PackageDocs {
  /** The package's directory. */
  readonly dir: string;
  /** Its README.md. */
  readonly readme: string;
  /** A file of the package, by its path relative to `dir`, as UTF-8. */
  read(path: string): string;
  /** {@link section} of `text`, the README unless given. */
  section(name: string, text?: string): string;
}

/** The docs of the package whose root is `root` (a `file:` URL or a path), e.g. `new URL("..", import.meta.url)`. */
export function packageDocs(root: URL | string): PackageDocs {
  const dir = root instanceof URL ? fileURLToPath(root) : root;
  const read = (path: string) => readFileSync(join(dir, path), "utf8");
  const readme = read("README.md");
  return { dir, readme, read, section: (name, text = readme) => section(text, name) };
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A markdown table row whose first cell is `` `name` `` (and whose second is `value`, when given). */
export function tableRow(name: string, value?: unknown): RegExp {
  const cells =
    value === undefined
      ? `\`${literal(name)}\`\\s*\\|`
      : `\`${literal(name)}\`\\s*\\|\\s*${literal(String(value))}\\s*\\|`;
  return new RegExp(`\\|\\s*${cells}`);
}

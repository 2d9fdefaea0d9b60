#!/usr/bin/env node
/**
 * Checks the real imports of every workspace package's `src/` (static,
 * `export … from`, `import type`, `import()` types and dynamic `import()`,
 * third-party ones included) against the layering rules below, and prints
 * one line per broken rule. `node scripts/check-layers.mjs [--json] [root]`;
 * exits 1 when a rule is broken. `checkLayers({ root })` is the same as a
 * function (packages/a2a-ocp-messaging/test/layering.test.ts runs both).
 *
 * It also holds every published package's root entry to its budget of
 * exports (scripts/export-budget.json, measured by scripts/export-surface.mjs):
 * `checkExportBudget({ root })`, tested by
 * packages/a2a-ocp-messaging/test/export-budget.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, posix, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { checkExportBudget } from "./export-surface.mjs";

export { checkExportBudget };

/**
 * Workspace packages, lowest layer first: a package imports only from lower
 * layers. The a2a+ocp stack is types → transport-ws → a2a-ocp-messaging →
 * a2a-ocp-client → (a2a-ocp-hub | a2a-ocp-agent | test-suite) → a2a-compat; the OCP one
 * types → transports → host → conformance.
 *
 * One way up: a package may reach a higher layer's package that is its
 * optional peer, only from the files OPTIONAL_PEERS names for it (loaded
 * lazily from the rest): a plug-in, like the hub's `--dashboard`.
 */
export const LAYERS = [
  ["@ocp/types"],
  ["@ocp/transport-stdio", "@ocp/transport-http", "@ocp/transport-ws"],
  ["@ocp/host", "@ocp/a2a-ocp-messaging"],
  ["@ocp/conformance", "@ocp/a2a-ocp-client"],
  // The compatibility suite tests hubs and agents over the wire and imports neither.
  ["@ocp/a2a-ocp-hub", "@ocp/a2a-ocp-agent", "@ocp/test-suite"],
  // The hub's dashboard: it reads a hub through `hub.observe()`, typed by @ocp/a2a-ocp-messaging/observe.
  ["@ocp/a2a-ocp-dashboard"],
  // The specification's §10.5 client: the agent runtime on a hub connection, one object.
  ["@ocp/a2a-compat", "@ocp/client"],
  // Bridges between the two protocols, and to MCP.
  ["@ocp/team-context", "@ocp/mcp-bridge"],
  // Applications and private test tools: nothing imports them.
  ["@ocp/demo-host", "@ocp/demo-provider", "@ocp/demo-team", "@ocp/testkit"],
];

/** Code that must run anywhere (browsers too): no `node:` module, only these packages. */
export const PORTABLE = {
  // gpt-tokenizer is plain portable JavaScript, behind the ./tokens and ./kit entries only.
  "@ocp/types": { except: [], packages: ["zod", "gpt-tokenizer"] },
  "@ocp/a2a-ocp-messaging": {
    // src/node is the ./node entry; a `*.node.ts` module is what Node loads under the `node` condition.
    except: ["src/node/**", "src/**/*.node.ts"],
    packages: ["zod", "@noble/*", "@ocp/types"],
  },
};

/**
 * Where each optional peer may be loaded: `files` import it (or modules that
 * do) at load time; `lazy` files may only reach it through dynamic `import()`.
 * Every optional peer of every package needs an entry here.
 */
export const OPTIONAL_PEERS = {
  "@ocp/a2a-ocp-agent": { "better-sqlite3": { files: ["src/sqlite/**"], lazy: [] } },
  // libsodium, loaded by `createRequire` on first use when the application installed it.
  "@ocp/a2a-ocp-messaging": { "sodium-native": { files: ["src/node/sodium.ts"], lazy: [] } },
  "@ocp/a2a-ocp-hub": {
    "@nats-io/*": { files: ["src/nats/**"], lazy: ["src/cli.ts"] },
    "@ocp/a2a-ocp-dashboard": { files: ["src/cli-dashboard.ts"], lazy: ["src/cli.ts"] },
  },
  "@ocp/a2a-compat": { express: { files: ["src/server.ts", "src/server-entry.ts"], lazy: [] } },
  // The shared token counter (`@ocp/types/tokens`, used by `./kit`); never by the root entry.
  "@ocp/types": {
    "gpt-tokenizer": {
      files: ["src/tokens.ts", "src/kit.ts", "src/guard.ts", "src/audit.ts"],
      lazy: [],
    },
  },
};

/** Workspace packages a package may import only through the named subpaths. */
export const SUBPATHS_ONLY = { "@ocp/host": { "@ocp/transport-http": ["./client"] } };

/** Packages a package must never load, directly or through anything it imports. */
export const NEVER_LOADS = { "@ocp/host": ["fastify"] };

/** Lines of a source module, counted like `wc -l` (a last line without newline counts too). */
export const MAX_MODULE_LINES = 400;

/** Modules already longer when this check became workspace-wide: they may not grow. Split them. */
export const LONG_MODULES = {
  "packages/transport-ws/src/client.ts": 429,
};

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs)$/;
const builtins = new Set(builtinModules);

const toPosix = (path) => path.split(sep).join("/");
/** Whether `value` (a path or package name) matches a glob: `*` within a segment, `**` across. */
const matches = (glob, value) => globRegExp(glob).test(value);
const globRegExp = (glob) =>
  new RegExp(
    `^${glob
      .split(/(\*\*\/|\*\*|\*)/)
      .map((part) =>
        part === "**/"
          ? "(?:.*/)?"
          : part === "**"
            ? ".*"
            : part === "*"
              ? "[^/]*"
              : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"),
      )
      .join("")}$`,
  );
const packageOf = (specifier) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

function workspaceDirs(root) {
  const yaml = readFileSync(join(root, "pnpm-workspace.yaml"), "utf8");
  const block = /^packages:\s*\n((?:[ \t]+-.*\n?)+)/m.exec(yaml)?.[1] ?? "";
  return [...block.matchAll(/-\s*["']?([^"'\s]+)["']?/g)].flatMap(([, glob]) => {
    if (!glob.endsWith("/*")) return [glob];
    const parent = glob.slice(0, -2);
    if (!existsSync(join(root, parent))) return [];
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => posix.join(parent, entry.name));
  });
}

function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Parsed imports by source text: checking copies of the workspace parses each text once. */
const parsed = new Map();

/** Every module specifier of a file, with how it is imported and its line (fresh objects). */
function importsOf(path, text) {
  if (!parsed.has(text)) parsed.set(text, parseImports(path, text));
  return parsed.get(text).map((entry) => ({ ...entry }));
}

function parseImports(path, text) {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const add = (node, literal, kind) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    if (literal && ts.isStringLiteralLike(literal))
      found.push({ specifier: literal.text, kind, line });
    else found.push({ specifier: undefined, kind, line });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      add(node, node.moduleSpecifier, node.importClause?.isTypeOnly ? "type" : "static");
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      add(node, node.moduleSpecifier, node.isTypeOnly ? "type" : "static");
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference)
    ) {
      add(node, node.moduleReference.expression, node.isTypeOnly ? "type" : "static");
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      add(node, ts.isLiteralTypeNode(argument) ? argument.literal : undefined, "type");
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword) add(node, node.arguments[0], "dynamic");
      else if (ts.isIdentifier(callee) && callee.text === "require") {
        add(node, node.arguments[0], "static");
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function loadWorkspace(root) {
  const packages = new Map();
  for (const dir of workspaceDirs(root)) {
    const manifestPath = join(root, dir, "package.json");
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    const files = sourceFiles(join(root, dir, "src")).map((path) => {
      const text = readFileSync(path, "utf8");
      const rel = toPosix(relative(join(root, dir), path));
      return { path, rel, name: `${dir}/${rel}`, text, imports: importsOf(path, text) };
    });
    packages.set(manifest.name, { dir, root: join(root, dir), manifest, files });
  }
  return packages;
}

/** The source file behind a package export (`./dist/x.js` → `src/x.ts`). */
function exportSource(pkg, subpath) {
  let target = pkg.manifest.exports?.[subpath];
  while (target && typeof target === "object") target = target.import ?? target.default;
  if (typeof target !== "string") return undefined;
  return resolveFile(join(pkg.root, target.replace(/^\.\/dist\//, "./src/")));
}

function resolveFile(path) {
  const stem = path.replace(/\.(m|c)?js$/, "");
  const candidates = [path, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(path, "index.ts")];
  return candidates.find((candidate) => existsSync(candidate) && SOURCE.test(candidate));
}

/**
 * Resolves every import: `target` is the imported source file (relative or
 * workspace), `external` the third-party package name, `builtin` a `node:` module.
 */
function resolveImports(packages, byPath) {
  for (const [name, pkg] of packages) {
    for (const file of pkg.files) {
      for (const entry of file.imports) {
        const { specifier } = entry;
        if (specifier === undefined) continue;
        if (specifier.startsWith(".")) {
          entry.target = byPath.get(resolveFile(join(dirname(file.path), specifier)) ?? "");
        } else if (specifier.startsWith("node:")) {
          entry.builtin = specifier;
        } else {
          entry.package = packageOf(specifier);
          const workspace = packages.get(entry.package);
          if (workspace === undefined) entry.external = entry.package;
          else {
            entry.subpath = `.${specifier.slice(entry.package.length)}`;
            entry.target = byPath.get(exportSource(workspace, entry.subpath) ?? "");
          }
        }
        entry.from = name;
      }
    }
  }
}

/**
 * What importing `file` loads at once (static imports only, across packages):
 * each third-party package, by the workspace package that imports it, with
 * the import chain that gets there.
 */
function loadsOf(file, memo) {
  if (memo.has(file)) return memo.get(file);
  const loads = new Map();
  const queue = [[file, [file.name]]];
  const seen = new Set([file]);
  while (queue.length > 0) {
    const [current, chain] = queue.shift();
    for (const entry of current.imports) {
      if (entry.kind !== "static") continue;
      const key = `${entry.external}\0${entry.from}`;
      if (entry.external && !loads.has(key)) {
        loads.set(key, { loaded: entry.external, owner: entry.from, chain });
      }
      if (entry.target && !seen.has(entry.target)) {
        seen.add(entry.target);
        queue.push([entry.target, [...chain, entry.target.name]]);
      }
    }
  }
  memo.set(file, [...loads.values()]);
  return memo.get(file);
}

const declared = (manifest, name) =>
  Object.hasOwn(manifest.dependencies ?? {}, name) ||
  Object.hasOwn(manifest.peerDependencies ?? {}, name);
const optionalPeers = (manifest) =>
  Object.entries(manifest.peerDependenciesMeta ?? {})
    .filter(([, meta]) => meta?.optional === true)
    .map(([name]) => name);
const peerRule = (packageName, peer) =>
  Object.entries(OPTIONAL_PEERS[packageName] ?? {}).find(([pattern]) =>
    matches(pattern, peer),
  )?.[1];

export function checkLayers({ root }) {
  const packages = loadWorkspace(root);
  const byPath = new Map(
    [...packages.values()].flatMap((pkg) => pkg.files.map((f) => [f.path, f])),
  );
  resolveImports(packages, byPath);
  const rank = new Map(LAYERS.flatMap((names, layer) => names.map((name) => [name, layer])));
  const memo = new Map();
  const violations = [];
  const report = (file, line, message) => violations.push(`${file.name}:${line}: ${message}`);

  for (const [name, pkg] of packages) {
    const where = `${pkg.dir}/package.json`;
    if (!rank.has(name)) violations.push(`${where}: ${name} is not in the layer order (LAYERS)`);
    for (const peer of optionalPeers(pkg.manifest)) {
      if (!peerRule(name, peer)) {
        violations.push(`${where}: optional peer ${peer} has no entry in OPTIONAL_PEERS`);
      }
    }
    const portable = PORTABLE[name];
    for (const file of pkg.files) {
      const lines = file.text.split("\n").length - (file.text.endsWith("\n") ? 1 : 0);
      const limit = LONG_MODULES[file.name] ?? MAX_MODULE_LINES;
      if (lines > limit) report(file, 1, `has ${lines} lines (at most ${limit})`);
      if (LONG_MODULES[file.name] !== undefined && lines <= MAX_MODULE_LINES) {
        report(file, 1, `has ${lines} lines now: remove it from LONG_MODULES`);
      }
      const isPortable = portable && !portable.except.some((glob) => matches(glob, file.rel));
      for (const entry of file.imports) {
        const { specifier, kind, line } = entry;
        if (specifier === undefined) {
          report(file, line, `${kind} import without a string literal cannot be checked`);
          continue;
        }
        if (specifier.startsWith(".") && entry.target === undefined) {
          report(file, line, `"${specifier}" resolves to no source file`);
        }
        if (specifier.startsWith(".") && entry.target?.name.startsWith(`${pkg.dir}/`) === false) {
          report(file, line, `"${specifier}" reaches into another package: import it by name`);
        }
        if (isPortable) {
          const outside =
            entry.builtin ||
            (entry.package && !portable.packages.some((p) => matches(p, entry.package))) ||
            (entry.target?.name.startsWith(`${pkg.dir}/`) &&
              portable.except.some((glob) => matches(glob, entry.target.rel)));
          if (outside) report(file, line, `portable code imports "${specifier}"`);
        }
        if (entry.package === undefined || entry.package === name) continue;
        checkPackageImport(pkg, file, entry, { packages, rank, report });
      }
      for (const entry of file.imports) checkLoads(pkg, file, entry, { packages, memo, report });
    }
  }
  for (const name of Object.keys(LONG_MODULES)) {
    if (!byPath.has(join(root, name))) violations.push(`${name}: in LONG_MODULES but not a module`);
  }
  return {
    packages: packages.size,
    files: byPath.size,
    violations: [...new Set(violations)].sort(),
  };
}

function checkPackageImport(pkg, file, entry, { packages, rank, report }) {
  const { manifest } = pkg;
  const name = manifest.name;
  const { specifier, line, kind } = entry;
  const dependency = entry.package;
  if (!declared(manifest, dependency)) {
    if (Object.hasOwn(manifest.devDependencies ?? {}, dependency)) {
      report(file, line, `imports "${specifier}", which is only a devDependency`);
    } else if (builtins.has(dependency)) {
      report(file, line, `imports "${specifier}": write "node:${specifier}"`);
    } else {
      report(file, line, `imports "${specifier}", which package.json does not declare`);
    }
  }
  if (NEVER_LOADS[name]?.includes(dependency)) {
    report(file, line, `imports "${specifier}", which ${name} must never load`);
  }
  const rule = peerRule(name, dependency);
  if (rule && optionalPeers(manifest).includes(dependency)) {
    const allowed = kind === "dynamic" ? [...rule.files, ...rule.lazy] : rule.files;
    if (!allowed.some((glob) => matches(glob, file.rel))) {
      report(file, line, `imports optional peer "${specifier}" outside ${rule.files.join(", ")}`);
    }
  }
  const target = packages.get(dependency);
  if (target !== undefined) {
    const layer = rank.get(name);
    const targetLayer = rank.get(dependency);
    const plugin =
      rule !== undefined &&
      optionalPeers(manifest).includes(dependency) &&
      [...rule.files, ...rule.lazy].some((glob) => matches(glob, file.rel));
    if (layer !== undefined && targetLayer !== undefined && targetLayer >= layer && !plugin) {
      report(file, line, `imports ${dependency} (layer ${targetLayer}) from layer ${layer}`);
    }
    if (entry.target === undefined) {
      report(file, line, `imports "${specifier}", which ${dependency} does not export`);
    }
    const only = SUBPATHS_ONLY[name]?.[dependency];
    if (only && !only.includes(entry.subpath)) {
      const allowed = only.map((subpath) => dependency + subpath.slice(1)).join(" or ");
      report(file, line, `imports "${specifier}"; ${name} may import only ${allowed}`);
    }
  }
}

/**
 * What a (non-type) import of another module loads: a package that is another
 * package's optional peer only if this package declares it too; an own
 * optional peer only from the files allowed to (`lazy` ones through `import()`
 * only); never a NEVER_LOADS package. Reported once, at the import where the
 * load leaves this package or the files allowed to load it.
 */
function checkLoads(pkg, file, entry, { packages, memo, report }) {
  if (entry.kind === "type" || entry.target === undefined) return;
  const name = pkg.manifest.name;
  const inside = entry.target.name.startsWith(`${pkg.dir}/`);
  for (const { loaded, owner, chain } of loadsOf(entry.target, memo)) {
    const via = `through ${chain.join(" → ")}`;
    if (!inside && NEVER_LOADS[name]?.includes(loaded)) {
      report(file, entry.line, `loads ${loaded} (${via}), which ${name} must never load`);
    }
    const ownersPeer = optionalPeers(packages.get(owner).manifest).includes(loaded);
    if (!inside && owner !== name && ownersPeer && !declared(pkg.manifest, loaded)) {
      report(
        file,
        entry.line,
        `loads ${loaded} (${via}), an optional peer of ${owner} that ${name} does not declare`,
      );
    }
    const rule = peerRule(name, loaded);
    if (!rule || !optionalPeers(pkg.manifest).includes(loaded)) continue;
    if (inside && !rule.files.some((glob) => matches(glob, entry.target.rel))) continue;
    const allowed = entry.kind === "dynamic" ? [...rule.files, ...rule.lazy] : rule.files;
    if (!allowed.some((glob) => matches(glob, file.rel))) {
      report(
        file,
        entry.line,
        `loads optional peer ${loaded} (${via}) outside ${rule.files.join(", ")}`,
      );
    }
  }
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const args = process.argv.slice(2);
  const json = args.includes("--json");
  const root =
    args.find((arg) => !arg.startsWith("--")) ??
    join(dirname(fileURLToPath(import.meta.url)), "..");
  const result = checkLayers({ root });
  const budget = checkExportBudget({ root });
  if (json) console.log(JSON.stringify({ ...result, exportBudget: budget.problems }));
  else {
    for (const violation of result.violations) console.error(violation);
    for (const problem of budget.problems) console.error(problem);
    console.log(
      `check-layers: ${result.packages} packages, ${result.files} modules, ${result.violations.length} broken rule(s); ` +
        `root exports of ${budget.packages} published packages, ${budget.problems.length} over budget`,
    );
  }
  process.exitCode = result.violations.length + budget.problems.length > 0 ? 1 : 0;
}

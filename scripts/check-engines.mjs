/**
 * Engines: no runtime dependency of a published package (its
 * `dependencies`, `optionalDependencies` and required peers, followed
 * through the installed tree) declares an `engines.node` range that leaves
 * out a Node version the package's own `engines.node` admits. A user with
 * npm's `engine-strict` would otherwise be refused the install, and every
 * other user warned.
 *
 * A gap we cannot close is listed in {@link KNOWN_ENGINE_GAPS} with the
 * reason; a listed gap no longer found is reported too, so the list stays
 * true. Used by scripts/check-packages.mjs; tested by
 * packages/types/test/check-engines.test.ts.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

/**
 * Gaps known and accepted, by the dependency's name: the first Node version
 * it leaves out (`leftOut`; any other gap is still reported), how we reach
 * it, and why it is harmless or what a user does about it.
 */
export const KNOWN_ENGINE_GAPS = {
  cookie: {
    leftOut: "20.19.0",
    via: "@ocp/transport-http → fastify 5 → light-my-request 6.8 → cookie 2 (node >=22)",
    why: "every cookie 2 release declares node >=22 and fastify 5 admits light-my-request 6.8; fastify loads light-my-request (and so cookie) only for fastify.inject(), which @ocp/transport-http never calls. Users with engine-strict on Node 20 pin light-my-request 6.6 (cookie 1, node >=18): see the transport-http README",
  },
  "better-sqlite3": {
    leftOut: "27.0.0",
    via: "@ocp/a2a-ocp-hub → better-sqlite3 (node 20.x || 22.x || … || 26.x)",
    why: "a native addon: each release lists the Node majors it has prebuilt binaries for, and a Node major not released yet is not among them",
  },
};

const INF = [Number.POSITIVE_INFINITY, 0, 0];

function compare(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** `"20.11"` → `{ parts: [20, 11], version: [20, 11, 0] }`; `x`/`*` parts end the list. */
function partial(text, range) {
  const match = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-[0-9A-Za-z.-]+)?$/.exec(
    text,
  );
  if (match === null) throw new Error(`cannot read the engines range "${range}"`);
  const parts = [];
  for (const part of match.slice(1, 4)) {
    if (part === undefined || /^[xX*]$/.test(part)) break;
    parts.push(Number(part));
  }
  return { parts, version: [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0] };
}

/** The first version above every version a partial names: `22` → 23.0.0, `22.1` → 22.2.0. */
function above({ parts }) {
  if (parts.length === 0) return INF;
  const next = [...parts, 0, 0].slice(0, 3);
  next[parts.length - 1] += 1;
  for (let i = parts.length; i < 3; i++) next[i] = 0;
  return next;
}

/** One comparator (`>=22`, `^18.0.0`, `1.x`, …) as an interval [lo, hi). */
function comparator(token, range) {
  const match = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(token);
  const op = match[1] ?? "";
  const p = partial(match[2], range);
  switch (op) {
    case ">=":
      return [p.version, INF];
    case ">":
      return [above(p), INF];
    case "<":
      return [[0, 0, 0], p.version];
    case "<=":
      return [[0, 0, 0], above(p)];
    case "~":
      return [
        p.version,
        above({ parts: p.parts.slice(0, Math.max(1, Math.min(2, p.parts.length))) }),
      ];
    case "^": {
      const first = p.parts.findIndex((n) => n !== 0);
      const keep = first < 0 ? p.parts.length : first + 1;
      return [p.version, above({ parts: p.parts.slice(0, Math.max(1, keep)) })];
    }
    default:
      return [p.version, above(p)];
  }
}

/** A semver range as a union of intervals [lo, hi) (versions as [major, minor, patch]). */
export function rangeIntervals(range) {
  const text = String(range)
    .trim()
    .replace(/(>=|<=|>|<|=|\^|~)\s+/g, "$1");
  return text.split("||").map((alternative) => {
    const trimmed = alternative.trim();
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(trimmed);
    if (hyphen !== null) {
      return [partial(hyphen[1], range).version, above(partial(hyphen[2], range))];
    }
    let lo = [0, 0, 0];
    let hi = INF;
    for (const token of trimmed === "" ? ["*"] : trimmed.split(/\s+/)) {
      const [l, h] = comparator(token, range);
      if (compare(l, lo) > 0) lo = l;
      if (compare(h, hi) < 0) hi = h;
    }
    return [lo, hi];
  });
}

/**
 * The first version `ours` admits that `theirs` does not, as "X.Y.Z", or
 * `undefined` when `theirs` admits every version `ours` does.
 */
export function firstVersionLeftOut(ours, theirs) {
  const mine = rangeIntervals(ours);
  const covered = rangeIntervals(theirs).sort(([a], [b]) => compare(a, b));
  for (const [lo, hi] of mine) {
    let cursor = lo;
    for (const [l, h] of covered) {
      if (compare(cursor, hi) >= 0) break;
      if (compare(l, cursor) > 0) break;
      if (compare(h, cursor) > 0) cursor = h;
    }
    if (compare(cursor, hi) < 0) return cursor.join(".");
  }
  return undefined;
}

/** The directory of `name` as Node would resolve it from the package at `dir`. */
function resolveFrom(dir, name) {
  let current = dir;
  for (;;) {
    const candidate = join(current, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** Runtime dependencies of the package at `dir`: dependencies, optional ones and required peers. */
function runtimeDependencies(pkg) {
  const optionalPeers = Object.entries(pkg.peerDependenciesMeta ?? {})
    .filter(([, meta]) => meta?.optional === true)
    .map(([name]) => name);
  return [
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.optionalDependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}).filter((name) => !optionalPeers.includes(name)),
  ];
}

/**
 * Walks the installed runtime tree of the package at `dir` and names every
 * dependency whose `engines.node` leaves out a version the package admits.
 * Returns the problems and the names of the known gaps it met.
 */
export function checkEngines({ dir, known = KNOWN_ENGINE_GAPS }) {
  const pkg = readJson(join(dir, "package.json"));
  const ours = pkg.engines?.node;
  const problems = [];
  const metKnown = new Set();
  if (ours === undefined) return { problems: [`${pkg.name}: declares no engines.node`], metKnown };
  const seen = new Set();
  const queue = [{ dir: realpathSync(dir), path: [pkg.name] }];
  while (queue.length > 0) {
    const { dir: at, path } = queue.shift();
    for (const name of runtimeDependencies(readJson(join(at, "package.json")))) {
      const found = resolveFrom(at, name);
      if (found === undefined) continue; // an optional dependency not installed here
      if (seen.has(found)) continue;
      seen.add(found);
      const dep = readJson(join(found, "package.json"));
      const id = `${dep.name}@${dep.version}`;
      const theirs = dep.engines?.node;
      if (theirs !== undefined) {
        let left;
        try {
          left = firstVersionLeftOut(ours, theirs);
        } catch (error) {
          problems.push(`${pkg.name}: ${id} (${[...path, name].join(" → ")}): ${error.message}`);
        }
        if (left !== undefined && known[dep.name]?.leftOut === left) metKnown.add(dep.name);
        else if (left !== undefined) {
          problems.push(
            `${pkg.name}: ${id} (${[...path, name].join(" → ")}) declares node ${theirs}, leaving out Node ${left} that ${pkg.name}'s engines (${ours}) admit`,
          );
        }
      }
      queue.push({ dir: found, path: [...path, name] });
    }
  }
  return { problems, metKnown };
}

/** {@link checkEngines} over packages; also names a known gap no longer met. */
export function checkEnginesOf(dirs, known = KNOWN_ENGINE_GAPS) {
  const problems = [];
  const met = new Set();
  for (const dir of dirs) {
    const result = checkEngines({ dir, known });
    problems.push(...result.problems);
    for (const id of result.metKnown) met.add(id);
  }
  for (const id of Object.keys(known)) {
    if (!met.has(id)) {
      problems.push(
        `scripts/check-engines.mjs: KNOWN_ENGINE_GAPS lists ${id} leaving out Node ${known[id].leftOut}, which no published package's runtime tree has any more: remove or correct it`,
      );
    }
  }
  return { problems, packages: dirs.map((dir) => relative(process.cwd(), dir)) };
}

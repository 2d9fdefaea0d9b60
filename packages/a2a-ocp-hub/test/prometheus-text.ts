/**
 * A strict reader of the Prometheus text exposition format (0.0.4), for the
 * metrics tests: it throws on anything a scraper could misread — a sample
 * before its `# TYPE`, a family typed twice or split, a bad name, label or
 * escape, a duplicate series, a counter not named `_total` or negative, a
 * histogram whose buckets are not cumulative or whose `+Inf` bucket is not
 * its `_count`, a missing final newline.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: "counter" | "gauge" | "histogram" | "summary" | "untyped";
  help: string | undefined;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

function parseValue(text: string, line: number): number {
  if (text === "+Inf") return Number.POSITIVE_INFINITY;
  if (text === "-Inf") return Number.NEGATIVE_INFINITY;
  if (text === "NaN") return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) {
    throw new Error(`line ${line}: not a number: ${JSON.stringify(text)}`);
  }
  return Number(text);
}

/** `{a="x",b="y"}` starting at `text[0] === "{"`; returns the labels and the rest. */
function parseLabels(text: string, line: number): [Record<string, string>, string] {
  const labels: Record<string, string> = {};
  let i = 1;
  const fail = (why: string) => {
    throw new Error(`line ${line}: ${why}`);
  };
  while (text[i] !== "}") {
    const eq = text.indexOf("=", i);
    if (eq < 0) fail("label without =");
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name) || name.startsWith("__")) fail(`bad label name ${name}`);
    if (name in labels) fail(`label ${name} twice`);
    if (text[eq + 1] !== '"') fail("label value not quoted");
    let value = "";
    let j = eq + 2;
    for (;;) {
      const c = text[j];
      if (c === undefined) fail("unterminated label value");
      if (c === '"') break;
      if (c === "\\") {
        const next = text[j + 1];
        if (next === "\\") value += "\\";
        else if (next === '"') value += '"';
        else if (next === "n") value += "\n";
        else fail(`bad escape \\${next}`);
        j += 2;
        continue;
      }
      value += c;
      j += 1;
    }
    labels[name] = value;
    i = j + 1;
    if (text[i] === ",") i += 1;
    else if (text[i] !== "}") fail("expected , or } after a label");
  }
  return [labels, text.slice(i + 1)];
}

function familyOf(sample: string, families: Map<string, Family>): Family | undefined {
  const direct = families.get(sample);
  if (direct !== undefined && direct.type !== "histogram") return direct;
  for (const suffix of ["_bucket", "_sum", "_count"]) {
    if (!sample.endsWith(suffix)) continue;
    const base = families.get(sample.slice(0, -suffix.length));
    if (base?.type === "histogram") return base;
  }
  return undefined;
}

/** Parses an exposition strictly; throws naming the first line at fault. */
export function parsePrometheusText(text: string): Map<string, Family> {
  if (!text.endsWith("\n")) throw new Error("the exposition does not end with a newline");
  const families = new Map<string, Family>();
  const closed = new Set<string>();
  const series = new Set<string>();
  let current: Family | undefined;
  const lines = text.slice(0, -1).split("\n");
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw === "") throw new Error(`line ${line}: empty line`);
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(raw);
    if (meta !== null) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string];
      if (!METRIC_NAME.test(name)) throw new Error(`line ${line}: bad metric name ${name}`);
      if (closed.has(name)) throw new Error(`line ${line}: family ${name} split`);
      let family = families.get(name);
      if (family === undefined) {
        if (current !== undefined) closed.add(current.name);
        family = { name, type: "untyped", help: undefined, samples: [] };
        families.set(name, family);
        current = family;
      } else if (family !== current || family.samples.length > 0) {
        throw new Error(`line ${line}: # ${kind} for ${name} after its samples`);
      }
      if (kind === "TYPE") {
        if (!TYPES.has(rest)) throw new Error(`line ${line}: unknown type ${rest}`);
        if (family.type !== "untyped") throw new Error(`line ${line}: ${name} typed twice`);
        family.type = rest as Family["type"];
      } else {
        if (family.help !== undefined) throw new Error(`line ${line}: ${name} has two HELP`);
        family.help = rest;
      }
      return;
    }
    if (raw.startsWith("#")) return; // a comment
    const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(raw);
    if (nameMatch === null) throw new Error(`line ${line}: not a sample: ${raw}`);
    const name = nameMatch[0];
    let rest = raw.slice(name.length);
    let labels: Record<string, string> = {};
    if (rest.startsWith("{")) [labels, rest] = parseLabels(rest, line);
    const parts = rest.split(" ");
    if (parts[0] !== "" || parts.length < 2 || parts.length > 3) {
      throw new Error(`line ${line}: expected one space, a value and an optional timestamp`);
    }
    const value = parseValue(parts[1]!, line);
    const family = familyOf(name, families);
    if (family === undefined || family !== current) {
      throw new Error(`line ${line}: sample ${name} outside its family's # TYPE block`);
    }
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (series.has(key)) throw new Error(`line ${line}: series ${key} twice`);
    series.add(key);
    family.samples.push({ name, labels, value });
  });
  for (const family of families.values()) checkFamily(family);
  return families;
}

function checkFamily(family: Family): void {
  if (family.type === "counter") {
    if (!family.name.endsWith("_total")) throw new Error(`counter ${family.name} lacks _total`);
    for (const s of family.samples) {
      if (!(s.value >= 0)) throw new Error(`counter ${family.name} is ${s.value}`);
    }
  }
  if (family.type !== "histogram") return;
  const groups = new Map<string, Sample[]>();
  for (const s of family.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  for (const [key, samples] of groups) {
    const buckets = samples.filter((s) => s.name.endsWith("_bucket"));
    const count = samples.find((s) => s.name.endsWith("_count"));
    const sum = samples.find((s) => s.name.endsWith("_sum"));
    if (count === undefined || sum === undefined) {
      throw new Error(`${family.name}${key} lacks _count or _sum`);
    }
    let previousLe = Number.NEGATIVE_INFINITY;
    let previous = 0;
    for (const b of buckets) {
      const le = parseValue(b.labels["le"] ?? "", 0);
      if (!(le > previousLe)) throw new Error(`${family.name}${key}: le not increasing`);
      if (b.value < previous) throw new Error(`${family.name}${key}: buckets not cumulative`);
      previousLe = le;
      previous = b.value;
    }
    if (previousLe !== Number.POSITIVE_INFINITY || previous !== count.value) {
      throw new Error(`${family.name}${key}: the +Inf bucket is not _count`);
    }
  }
}

/** The value of one series, or undefined. */
export function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const family of families.values()) {
    for (const s of family.samples) {
      if (s.name !== name) continue;
      if (Object.entries(labels).every(([k, v]) => s.labels[k] === v)) return s.value;
    }
  }
  return undefined;
}

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { plainFormCheck } from "@ocp/types/fast";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
  checkAgentProfile,
  checkAgentUri,
  checkCustomMessage,
  KNOWN_MESSAGE_CHECKS,
} from "../src/generated/plain-checks.js";
import { createAgentProfile, generateIdentity, KNOWN_MESSAGE_TYPES } from "../src/index.js";
import {
  AgentProfileSchema,
  AgentUriSchema,
  CustomMessageSchema,
  KnownMessageSchema,
} from "../src/schemas.js";
import { json, plainMessage } from "./support/arbitraries.js";

vi.setConfig({ testTimeout: 60_000 });

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const GENERATOR = join(packageDir, "scripts/generate-checks.mjs");
const MODULE = join(packageDir, "src/generated/plain-checks.ts");
type Obj = Record<string, unknown>;

function generator(...args: string[]) {
  return spawnSync(process.execPath, [GENERATOR, ...args], {
    cwd: packageDir,
    encoding: "utf8",
    timeout: 60_000,
  });
}

/** Values near the valid ones: messages as sent, with members changed or added, and any JSON. */
const nearMessages = fc.oneof(
  plainMessage.map((m) => JSON.parse(JSON.stringify(m)) as unknown),
  fc
    .tuple(
      plainMessage,
      fc.constantFrom("", "payload."),
      fc.string({ maxLength: 12 }),
      fc.oneof(json, fc.constant(undefined)),
    )
    .map(([message, where, key, member]) => {
      const value = JSON.parse(JSON.stringify(message)) as Obj;
      const holder = (where === "" ? value : value["payload"]) as Obj;
      if (key !== "__proto__") holder[key] = member;
      return value;
    }),
  json,
);

describe("src/generated/plain-checks.ts: the checks generated from the zod schemas", () => {
  it("is up to date with the schemas (else run `pnpm generate`)", () => {
    const run = generator("--check");
    expect(run.stderr).toContain("is up to date");
    expect(run.status).toBe(0);
  });

  it("the up-to-date check fails on a stale module: one whose vote enum lost a member", () => {
    const dir = mkdtempSync(join(tmpdir(), "ocp-plain-checks-"));
    try {
      const stale = join(dir, "plain-checks.ts");
      const text = readFileSync(MODULE, "utf8");
      const edited = text.replace('["approve","reject","abstain"]', '["approve","reject"]');
      expect(edited).not.toBe(text);
      writeFileSync(stale, edited);
      const run = generator("--check", "--target", stale);
      expect(run.stderr).toContain("is stale: run `pnpm generate`");
      expect(run.status).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("has a check for every known message type", () => {
    expect([...KNOWN_MESSAGE_CHECKS.keys()].sort()).toEqual([...KNOWN_MESSAGE_TYPES].sort());
  });

  it("property: each generated check answers as the check compiled at run time from its schema", () => {
    const runtime = new Map<unknown, (value: unknown) => boolean>();
    for (const variant of KnownMessageSchema.options) {
      runtime.set(variant.shape.type.value, plainFormCheck(variant));
    }
    const custom = plainFormCheck(CustomMessageSchema);
    let taken = 0;
    fc.assert(
      fc.property(nearMessages, fc.constantFrom(...KNOWN_MESSAGE_TYPES), (value, otherType) => {
        const type =
          typeof value === "object" && value !== null ? Reflect.get(value, "type") : undefined;
        // Its own type's check and another type's: both answer as the schema-compiled ones.
        for (const name of [type, otherType]) {
          const generated = KNOWN_MESSAGE_CHECKS.get(name as string);
          if (generated !== undefined) expect(generated(value)).toBe(runtime.get(name)!(value));
        }
        expect(checkCustomMessage(value)).toBe(custom(value));
        if (KNOWN_MESSAGE_CHECKS.get(type as string)?.(value) || checkCustomMessage(value)) {
          taken += 1;
        }
      }),
      { numRuns: 400, seed: 11 },
    );
    expect(taken).toBeGreaterThan(50);
  });

  it("checks agent URIs and profiles as their schemas do", () => {
    const uris = ["a2a://alice", "a2a://", "http://alice", `a2a://${"a".repeat(600)}`, 3, null];
    for (const uri of uris) {
      expect(checkAgentUri(uri), String(uri)).toBe(AgentUriSchema.safeParse(uri).success);
    }
    const profile = createAgentProfile(generateIdentity("a2a://alice"), { name: "Alice" });
    const variants: unknown[] = [
      profile,
      { ...profile, keyAlgorithm: "RSA" },
      { ...profile, encryptionKey: profile.publicKey },
      { ...profile, encryptionKey: profile.publicKey, encryptionKeyAlgorithm: "X25519" },
      { ...profile, issuedAt: "yesterday" },
      { ...profile, acme_team: "blue" },
      "profile",
    ];
    for (const value of variants) {
      expect(checkAgentProfile(value)).toBe(AgentProfileSchema.safeParse(value).success);
    }
  });
});

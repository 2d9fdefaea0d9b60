import * as host from "@ocp/host";
import * as httpClient from "@ocp/transport-http/client";
import * as types from "@ocp/types";
import * as cgp from "@ocp/types/cgp";
import { CGP_RULES } from "@ocp/types/cgp";
import { describe, expect, it } from "vitest";
import { CGP_CHECK_SPECS, CGP_HOST_CHECK_SPECS } from "../src/internal.js";

/** Every check `ocp-inspect --family contextgraph` and its CGP host harness run. */
const CGP_CHECKS = new Set([...CGP_CHECK_SPECS, ...CGP_HOST_CHECK_SPECS].map((spec) => spec.name));
const judged = CGP_RULES.filter((rule) => ["fail", "advisory", "host"].includes(rule.suite));
const EXPORTS: Record<string, unknown> = { ...types, ...cgp, ...host, ...httpClient };

describe("CGP_RULES names exactly the contextgraph/1 checks", () => {
  it("every check a judged rule names is a provider check or a CGP host-harness check", () => {
    const unknown = judged.filter((rule) => !CGP_CHECKS.has(rule.check as never));
    expect(unknown.map((rule) => `${rule.id}: ${rule.check}`)).toEqual([]);
  });

  it("every contextgraph/1 check (provider and host) is named by some rule", () => {
    const named = new Set<string>(judged.map((rule) => rule.check));
    expect([...CGP_CHECKS].filter((check) => !named.has(check))).toEqual([]);
  });

  it("host-harness checks carry the host verdict, provider checks fail or advise", () => {
    const hostChecks = new Set(CGP_HOST_CHECK_SPECS.map((spec) => spec.name as string));
    for (const rule of judged) {
      expect(rule.suite === "host", `${rule.id}: ${rule.check}`).toBe(hostChecks.has(rule.check));
    }
  });

  it("a rulebook rule names a real export (a function or class method) that enforces it; an unchecked one is a SHOULD with no check", () => {
    for (const rule of CGP_RULES.filter((r) => r.suite === "rulebook")) {
      const [name, member] = rule.check.split(".") as [string, string | undefined];
      const value = EXPORTS[name] as { prototype?: Record<string, unknown> } | undefined;
      expect(typeof value, `${rule.id}: ${rule.check}`).toBe("function");
      if (member !== undefined) {
        expect(typeof value?.prototype?.[member], `${rule.id}: ${rule.check}`).toBe("function");
      }
    }
    for (const rule of CGP_RULES.filter((r) => r.suite === "unchecked")) {
      expect(rule.check, rule.id).toBe("—");
      expect(rule.summary, rule.id).toMatch(/^SHOULD/);
    }
  });

  it("R3 is the host harness's host-content-quoting and U3 is not pinned on consent-scope", () => {
    expect(CGP_RULES.find((r) => r.id === "R3")).toMatchObject({ check: "host-content-quoting" });
    expect(CGP_RULES.find((r) => r.id === "U3")?.check).not.toBe("consent-scope");
  });
});

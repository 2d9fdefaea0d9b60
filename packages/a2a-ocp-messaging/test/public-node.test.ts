import { describe, expect, it } from "vitest";
import { maySee, type VisibilityPolicy } from "../src/index.js";
import { isPublicNode } from "../src/internal.js";

const policy: VisibilityPolicy = { teamOf: () => "t", defaultVisibility: "workspace" };
const by = "a2a://author";

describe("§8.5 isPublicNode: what a caller with no identity may see", () => {
  it("is true for public nodes only: not workspace, team, private or sharedWith grants", () => {
    expect(isPublicNode({ createdBy: by, visibility: "public" }, policy)).toBe(true);
    for (const visibility of ["workspace", "team", "private"] as const)
      expect(isPublicNode({ createdBy: by, visibility, sharedWith: ["a2a://x"] }, policy)).toBe(
        false,
      );
    // Any agent of the hub may see a workspace node; a caller with no identity is none of them.
    expect(maySee({ createdBy: by, visibility: "workspace" }, "a2a://x", policy)).toBe(true);
  });

  it("reads an absent visibility as the policy's default", () => {
    expect(isPublicNode({ createdBy: by }, policy)).toBe(false);
    expect(isPublicNode({ createdBy: by }, { ...policy, defaultVisibility: "public" })).toBe(true);
  });
});

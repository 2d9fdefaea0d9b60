import { describe, expect, it } from "vitest";
import { z } from "zod";
import { randomUuid } from "../src/uuid.js";

describe("randomUuid", () => {
  it("gives distinct version 4 UUIDs (randomUUID here; the browser test covers the getRandomValues path of an insecure page)", () => {
    const ids = Array.from({ length: 1000 }, randomUuid);
    const v4 = z.uuid({ version: "v4" });
    for (const id of ids) expect(v4.safeParse(id).success, id).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

/**
 * A message signed the §8.2 way (JSON.stringify of seven fields) is refused
 * with `signature_scheme_mismatch`, naming our scheme and where it is
 * written; a tampered message stays `signature_invalid`.
 */
import { readFileSync } from "node:fs";
import { createMessage, signObject } from "@ocp/a2a-ocp-messaging";
import { SIGNATURE_SCHEME_DOC, specFieldsSigningInput } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { describe, expect, it } from "vitest";
import { client, hubPerTest, identity } from "./support.js";

const fixture = hubPerTest();
const { clients } = fixture;
const _join = (name: string, options = {}) => fixture.join(name, options);

describe("signature scheme", () => {
  it("refuses a §8.2-signed message with signature_scheme_mismatch naming our scheme", async () => {
    const id = identity("spec-signer");
    const bob = identity("bob");
    const joined = await client(fixture.hub.url, id);
    clients.push(joined.client);
    clients.push((await client(fixture.hub.url, bob)).client);
    const message = createMessage({
      type: "ocp.custom.hello",
      from: id.id,
      to: bob.id,
      payload: { text: "hi" },
    }) as unknown as Record<string, unknown>;
    const signature = Buffer.from(
      nativeEd25519.sign(specFieldsSigningInput(message), id.secretKey),
    ).toString("base64");
    const error = await joined.client.send({ ...message, signature } as never).then(
      () => undefined,
      (e: unknown) => e as { code: string; message: string },
    );
    expect(error?.code).toBe("signature_scheme_mismatch");
    expect(error?.message).toContain("RFC 8785");
    expect(error?.message).toContain(SIGNATURE_SCHEME_DOC);

    // Our scheme, tampered: still the bare signature_invalid.
    const ours = signObject(
      createMessage({ type: "ocp.custom.hello", from: id.id, to: bob.id, payload: { a: 1 } }),
      id.secretKey,
    );
    await expect(joined.client.send({ ...ours, payload: { a: 2 } })).rejects.toMatchObject({
      code: "signature_invalid",
    });
  }, 30_000);
});

describe("the written wire", () => {
  it("has the section the refusal points to", () => {
    const [file, anchor] = SIGNATURE_SCHEME_DOC.split("#");
    const text = readFileSync(new URL(`../../../${file}`, import.meta.url), "utf8");
    const headings = text.split("\n").filter((line) => line.startsWith("#"));
    const slugs = headings.map((h) =>
      h
        .replace(/^#+\s*/, "")
        .toLowerCase()
        .replace(/\s+/g, "-"),
    );
    expect(slugs).toContain(anchor);
  });
});

/**
 * Every type the root entry's signatures name is exported from the root
 * (type-only), so a user can name it and the API reference links it.
 * `pnpm typecheck` fails when one of them leaves the root again.
 */
import { describe, expectTypeOf, it } from "vitest";
import type {
  AcceptedFrame,
  Composition,
  DroppedFrame,
  DroppedHeld,
  DropReason,
  FanOutResult,
  HeldAside,
  Host,
  HostOptions,
  HostTracing,
  ReceiptLedger,
  ReceiptSubject,
  ReuseDropReason,
  ReuseVerdict,
  Trim,
} from "../src/index.js";

describe("the host's root entry exports the types its signatures name", () => {
  it("Host, its options, fan-out results, compositions, reuse verdicts and receipts", () => {
    expectTypeOf<Parameters<Host["verifyFrames"]>[0]>().toEqualTypeOf<readonly AcceptedFrame[]>();
    expectTypeOf<ReturnType<Host["verifyFrames"]>>().toEqualTypeOf<Promise<ReuseVerdict>>();
    expectTypeOf<DroppedHeld["reason"]>().toEqualTypeOf<ReuseDropReason>();
    expectTypeOf<FanOutResult["trimmed"]>().toEqualTypeOf<readonly Trim[]>();
    expectTypeOf<FanOutResult["opaque"]>().toEqualTypeOf<readonly HeldAside[]>();
    expectTypeOf<Composition["dropped"]>().toEqualTypeOf<readonly DroppedFrame[]>();
    expectTypeOf<DroppedFrame["reason"]>().toEqualTypeOf<DropReason>();
    expectTypeOf<HostOptions["tracing"]>().toEqualTypeOf<HostTracing | undefined>();
    expectTypeOf<Parameters<ReceiptLedger["liveGrant"]>[0]>().toEqualTypeOf<ReceiptSubject>();
  });
});

import {
  type AgentIdentity,
  createMessage,
  generateIdentity,
  type InboundOptions,
  InboundPipeline,
  type KnownMessageType,
  type MessageInit,
  signObject,
} from "../../src/index.js";
import { ALICE, BOB, SAMPLE_PAYLOADS } from "./samples.js";

/** A fixed "now" for deterministic freshness checks. */
export const NOW = Date.parse("2026-01-15T12:00:00.000Z");

export class FakeClock {
  constructor(public ms: number = NOW) {}
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface Harness {
  alice: AgentIdentity;
  clock: FakeClock;
  pipeline: InboundPipeline;
  /** A signed message from alice, as wire text. */
  wire<T extends KnownMessageType>(type: T, init?: Partial<MessageInit<T>>): string;
}

export function harness(options: Partial<InboundOptions> = {}): Harness {
  const alice = generateIdentity(ALICE);
  const clock = new FakeClock();
  const pipeline = new InboundPipeline({
    lookupKey: (id) => (id === ALICE ? alice.publicKey : undefined),
    now: clock.now,
    ...options,
  });
  const wire = <T extends KnownMessageType>(type: T, init: Partial<MessageInit<T>> = {}) => {
    const message = createMessage({
      type,
      from: ALICE,
      to: BOB,
      payload: SAMPLE_PAYLOADS[type],
      timestamp: new Date(clock.ms).toISOString(),
      ...init,
    } as MessageInit<T>);
    return JSON.stringify(signObject(message, alice.secretKey));
  };
  return { alice, clock, pipeline, wire };
}

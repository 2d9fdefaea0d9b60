import type {
  Capabilities,
  ContextFrame,
  ContextFrameInit,
  ContextProvider,
  ContextQuery,
  ContextQueryResult,
  ProviderInfo,
  QueryOptions,
} from "@ocp/types";
import { ContextFrameSchema } from "@ocp/types";

export function frame(init: Partial<ContextFrameInit> & { id: string }): ContextFrame {
  return ContextFrameSchema.parse({
    kind: "doc",
    title: `Title of ${init.id}`,
    content: `Content of ${init.id}.`,
    score: 0.5,
    token_cost: 10,
    citation_label: `Doc ${init.id}`,
    ...init,
  });
}

export interface FakeOptions {
  readonly id: string;
  readonly name?: string;
  readonly egress?: boolean;
  readonly kinds?: string[];
  readonly protocolVersion?: string;
  /** What the provider does with a query. */
  readonly answer?: (query: ContextQuery, options: QueryOptions) => Promise<ContextQueryResult>;
  readonly shutdown?: () => Promise<void>;
}

/** An in-process provider that records every query it receives. */
export interface FakeProvider extends ContextProvider {
  readonly received: ContextQuery[];
  shutdowns: number;
}

export function fakeProvider(options: FakeOptions): FakeProvider {
  const info: ProviderInfo = {
    name: options.name ?? `${options.id}-provider`,
    version: "1.0.0",
    data_flow: { reads: true, writes: false, egress: options.egress ?? false },
  };
  const capabilities: Capabilities = {
    query: { kinds: options.kinds ?? ["doc", "snippet"], filters: [] },
    upsert: false,
    graph: false,
    subscribe: false,
  };
  const answer = options.answer ?? (async (query: ContextQuery) => honestAnswer(options.id, query));
  const provider: FakeProvider = {
    id: options.id,
    info,
    capabilities,
    ...(options.protocolVersion ? { protocolVersion: options.protocolVersion } : {}),
    received: [],
    shutdowns: 0,
    async query(query, queryOptions = {}) {
      provider.received.push(query);
      return answer(query, queryOptions);
    },
    async shutdown() {
      provider.shutdowns += 1;
      await options.shutdown?.();
    },
  };
  return provider;
}

/** Two small frames that respect every rule of the query. */
export function honestAnswer(prefix: string, query: ContextQuery): ContextQueryResult {
  const kind = query.kinds[0] ?? "doc";
  const frames = [
    frame({ id: `${prefix}-1`, kind, score: 0.9, content: `Honest content one from ${prefix}.` }),
    frame({ id: `${prefix}-2`, kind, score: 0.4, content: `Honest content two from ${prefix}.` }),
  ].slice(0, query.max_frames);
  return { frames, truncated: false };
}

/** Resolves never, and ignores the abort signal: the worst kind of hang. */
export function never<T>(): Promise<T> {
  return new Promise<T>(() => undefined);
}

export const QUERY = {
  goal: "explain the budget audit",
  query_text: "budget audit",
  kinds: ["doc" as const],
  max_frames: 8,
  max_tokens: 200,
};

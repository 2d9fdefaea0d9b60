/**
 * §9.2 OCP operations as A2A tasks: which OCP message type maps to which A2A
 * task, and how a task travels in an A2A message.
 *
 * A request is an A2A message (role user) with one data part
 * `{ task, input, from? }` (media type `application/json`): `task` a name of
 * {@link A2A_TASKS}, `input` the OCP payload of the equivalent message type,
 * `from` the caller's `a2a://` URI when it has one (informational: A2A
 * carries no OCP signature). The message lists {@link OCP_EXTENSION_URI} in
 * `extensions`. The reply is a task whose artifact (or a message) carries a
 * data part with the task's output ({@link TASK_OUTPUT_SCHEMAS}).
 */
import { type Message, Role, type Task } from "@a2a-js/sdk";
import type { MessageOf, OcpFeature } from "@ocp/a2a-ocp-messaging";
import { PAYLOAD_SCHEMAS } from "@ocp/a2a-ocp-messaging/internal";
import {
  AgentUriSchema,
  AwarenessResponsePayloadSchema,
  CollectiveResponsePayloadSchema,
  ConsensusVotePayloadSchema,
  EventPublishPayloadSchema,
} from "@ocp/a2a-ocp-messaging/schemas";
import { z } from "zod";

/** OCP message type → its A2A task (§9.2; awareness and events are our equivalents). */
export const A2A_TASKS = {
  "ocp.knowledge.stream": "receive_knowledge",
  "ocp.collective.query": "search_and_respond",
  "ocp.consensus.propose": "vote_on_proposal",
  "ocp.awareness.beacon": "share_awareness",
  "ocp.awareness.query": "query_awareness",
  "ocp.event.publish": "publish_event",
} as const;

/** An OCP message type that has an A2A task equivalent. */
export type TaskMessageType = keyof typeof A2A_TASKS;
export type A2ATaskName = (typeof A2A_TASKS)[TaskMessageType];
export const A2A_TASK_NAMES = Object.values(A2A_TASKS) as A2ATaskName[];

/** Task → the OCP message type it stands for (as a type). */
export type TaskTypeOf = { [T in TaskMessageType as (typeof A2A_TASKS)[T]]: T };
/** Task → the OCP message type it stands for. */
export const TASK_MESSAGE_TYPES = Object.fromEntries(
  Object.entries(A2A_TASKS).map(([type, task]) => [task, type]),
) as TaskTypeOf;

/** Task → the §7.1 feature an agent must offer to answer it. */
export const TASK_FEATURES: Record<A2ATaskName, OcpFeature> = {
  receive_knowledge: "knowledge_streaming",
  search_and_respond: "collective_query",
  vote_on_proposal: "consensus_voting",
  share_awareness: "awareness_beacon",
  query_awareness: "awareness_beacon",
  publish_event: "event_publishing",
};

/** Output of `receive_knowledge` and `share_awareness`. */
export const AcceptedOutputSchema = z.looseObject({ accepted: z.number().int().min(0) });

/** Task → the schema of its output (the reply's data part). */
export const TASK_OUTPUT_SCHEMAS = {
  receive_knowledge: AcceptedOutputSchema,
  search_and_respond: CollectiveResponsePayloadSchema,
  vote_on_proposal: ConsensusVotePayloadSchema,
  share_awareness: AcceptedOutputSchema,
  query_awareness: AwarenessResponsePayloadSchema,
  publish_event: EventPublishPayloadSchema,
} as const;
export type TaskOutput<T extends A2ATaskName> = z.infer<(typeof TASK_OUTPUT_SCHEMAS)[T]>;

/** The data part of a task request. */
export const TaskRequestSchema = z.looseObject({
  task: z.enum(A2A_TASK_NAMES as [A2ATaskName, ...A2ATaskName[]]),
  input: z.unknown(),
  from: AgentUriSchema.optional(),
});

/** A parsed task request: the task, its OCP payload (checked by the payload schema) and the caller. */
export type TaskRequest = {
  [K in A2ATaskName]: {
    task: K;
    type: TaskTypeOf[K];
    input: MessageOf<TaskTypeOf[K]>["payload"];
    from: string | undefined;
  };
}[A2ATaskName];

/** The media type of the data parts this module writes. */
export const DATA_MEDIA_TYPE = "application/json";

/** An SDK data part. */
export function dataPart(value: unknown): Message["parts"][number] {
  return {
    content: { $case: "data", value },
    metadata: undefined,
    filename: "",
    mediaType: DATA_MEDIA_TYPE,
  };
}

/** An SDK text part. */
export function textPart(value: string): Message["parts"][number] {
  return {
    content: { $case: "text", value },
    metadata: undefined,
    filename: "",
    mediaType: "text/plain",
  };
}

/** The data values of a list of parts, in order. */
export function dataValues(parts: readonly Message["parts"][number][]): unknown[] {
  return parts.flatMap((p) => (p.content?.$case === "data" ? [p.content.value] : []));
}

/** Builds the A2A message asking for the task equivalent to an OCP message of `type`. */
export function taskRequestMessage(
  type: TaskMessageType,
  payload: unknown,
  options: { from?: string; extensionUri: string },
): Message {
  const task = A2A_TASKS[type];
  return {
    messageId: globalThis.crypto.randomUUID(),
    contextId: "",
    taskId: "",
    role: Role.ROLE_USER,
    parts: [
      dataPart({
        task,
        input: payload,
        ...(options.from === undefined ? {} : { from: options.from }),
      }),
      textPart(`${task} (${type})`),
    ],
    metadata: {},
    extensions: [options.extensionUri],
    referenceTaskIds: [],
  };
}

/** Parses the task request an A2A message carries; the error says what is wrong. */
export function parseTaskRequest(
  message: Message,
): { ok: true; value: TaskRequest } | { ok: false; error: string } {
  for (const value of dataValues(message.parts)) {
    const envelope = TaskRequestSchema.safeParse(value);
    if (!envelope.success) continue;
    const type = TASK_MESSAGE_TYPES[envelope.data.task];
    const input = PAYLOAD_SCHEMAS[type].safeParse(envelope.data.input);
    if (!input.success)
      return {
        ok: false,
        error: `${envelope.data.task}: the input is not a valid ${type} payload: ${input.error.issues[0]?.message ?? "invalid"}`,
      };
    return {
      ok: true,
      value: {
        task: envelope.data.task,
        type,
        input: input.data,
        from: envelope.data.from,
      } as TaskRequest,
    };
  }
  return {
    ok: false,
    error: `no data part { task, input } naming one of ${A2A_TASK_NAMES.join(", ")}`,
  };
}

/** Whether a send result is a task (else a message). */
export function isTask(result: Message | Task): result is Task {
  return !("messageId" in result);
}

/** The data values of a reply: a message's parts, or a task's artifacts then its status message. */
export function replyValues(result: Message | Task): unknown[] {
  if (!isTask(result)) return dataValues(result.parts);
  return [
    ...result.artifacts.flatMap((a) => dataValues(a.parts)),
    ...dataValues(result.status?.message?.parts ?? []),
  ];
}

/** The text of a reply (for a failed task's reason). */
export function replyText(result: Message | Task): string {
  const parts = isTask(result) ? (result.status?.message?.parts ?? []) : result.parts;
  return parts.flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : [])).join(" ");
}

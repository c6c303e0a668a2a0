/**
 * zod schemas for the session-journal JSONL lines (docs/note-format.md §2.1), used to
 * validate what we read back (the CLI, older CLI versions and our own writer share these files).
 * Lenient where older writers omitted fields (filled with the neutral value), unknown keys kept.
 * `journalKeyOrder` lists the order in which the CLI writes the keys of each line kind.
 */
import { z } from 'zod';
import type { ChangeLine, CommittedPairLine, EventLine, PreBlobLine, PromptLine } from '../../core/model/journal';

const nullableString = z.string().nullable().optional().default(null);
const nullableInt = z.number().nullable().optional().default(null);
const turn = z.number().int().min(0).optional().default(0);

export const promptLineSchema = z
  .object({
    event: z.literal('prompt').optional().default('prompt'),
    timestamp: z.string().optional().default(''),
    prompt: z.string(),
    prompt_id: z
      .string()
      .nullish()
      .transform((v) => v ?? ''),
    turn,
  })
  .passthrough();

export const changeLineSchema = z
  .object({
    event: z.literal('file_change').optional().default('file_change'),
    timestamp: z.string().optional().default(''),
    tool: z.string().optional().default(''),
    file: z.string(),
    session_id: z.string().optional().default(''),
    turn,
    prompt_id: nullableString,
    blob: z.string(),
    change_id: nullableString,
    edit_added: nullableInt,
    edit_deleted: nullableInt,
    tool_use_id: nullableString,
  })
  .passthrough();

export const preBlobLineSchema = z
  .object({
    event: z.literal('pre_blob').optional().default('pre_blob'),
    turn,
    prompt_id: nullableString,
    file: z.string(),
    blob: z.string(),
    tool_use_id: nullableString,
  })
  .passthrough();

const eventBase = { session_id: z.string().optional().default(''), timestamp: z.string().optional().default('') };

export const eventLineSchema = z.discriminatedUnion('event', [
  z
    .object({ event: z.literal('session_start'), ...eventBase, agent: z.string().optional().default(''), model: nullableString })
    .passthrough(),
  z
    .object({
      event: z.literal('prompt'),
      ...eventBase,
      prompt_id: z
        .string()
        .nullish()
        .transform((v) => v ?? ''),
      turn,
      model: nullableString,
    })
    .passthrough(),
  z.object({ event: z.literal('response'), ...eventBase, turn, response: nullableString }).passthrough(),
  z.object({ event: z.literal('stop'), ...eventBase, turn, response: nullableString }).passthrough(),
]);

export const committedPairLineSchema = z
  .object({
    turn,
    prompt_id: z.string().nullable().optional(),
    file: z.string().nullable().optional().default(null),
    prompt_scope: z.enum(['window', 'tail']).optional(),
    change_id: nullableString,
    tool_use_id: nullableString,
  })
  .passthrough();

/** Key order of each line kind as the CLI writes it; optional keys are omitted when undefined. */
export const journalKeyOrder = {
  prompt: ['event', 'timestamp', 'prompt', 'prompt_id', 'turn'],
  change: [
    'event',
    'timestamp',
    'tool',
    'file',
    'session_id',
    'turn',
    'prompt_id',
    'blob',
    'change_id',
    'edit_added',
    'edit_deleted',
    'tool_use_id',
  ],
  preBlob: ['event', 'turn', 'prompt_id', 'file', 'blob', 'tool_use_id'],
  committedPair: ['turn', 'prompt_id', 'file', 'prompt_scope', 'change_id', 'tool_use_id'],
  event: {
    session_start: ['event', 'session_id', 'timestamp', 'agent', 'model'],
    prompt: ['event', 'session_id', 'timestamp', 'prompt_id', 'turn', 'model'],
    response: ['event', 'session_id', 'timestamp', 'turn', 'response'],
    stop: ['event', 'session_id', 'timestamp', 'turn', 'response'],
  },
} as const;

// Compile-time check that the parsed shapes are assignable to the shared line types.
type Assignable<T, U extends T> = U;
export type ParsedPromptLine = Assignable<PromptLine, z.infer<typeof promptLineSchema>>;
export type ParsedChangeLine = Assignable<ChangeLine, z.infer<typeof changeLineSchema>>;
export type ParsedPreBlobLine = Assignable<PreBlobLine, z.infer<typeof preBlobLineSchema>>;
export type ParsedEventLine = Assignable<EventLine, z.infer<typeof eventLineSchema>>;
export type ParsedCommittedPairLine = Assignable<CommittedPairLine, z.infer<typeof committedPairLineSchema>>;

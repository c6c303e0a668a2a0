/** zod schemas of every message the Show Note webview may send (host side only). */
import { z } from 'zod';
import { createInboundParser, repoPathSchema, voidParamsSchema, type InboundOf } from '../inboundMessages';

/** One schema per method of ./protocol.ts (a unit test checks the keys equal the descriptors' methods). */
export const noteMessageSchemas = {
  'note/ready': voidParamsSchema,
  'note/copyJson': voidParamsSchema,
  'note/copyMarkdown': voidParamsSchema,
  'note/openFile': z.object({ path: repoPathSchema }),
  'note/openInTimeline': voidParamsSchema,
};

/** A validated inbound Show Note message. */
export type NoteInbound = InboundOf<typeof noteMessageSchemas>;

/** Validate a raw message from the Show Note webview. */
export const parseNoteMessage = createInboundParser(noteMessageSchemas);

/** zod schemas of every message the Timeline webview may send (host side only). */
import { z } from 'zod';
import { createInboundParser, repoPathSchema, shaSchema, voidParamsSchema, type InboundOf } from '../inboundMessages';

/**
 * One schema per method of ./protocol.ts (literal keys keep the union discriminated; a unit test
 * checks they equal the descriptors' method names).
 */
export const timelineMessageSchemas = {
  'timeline/ready': voidParamsSchema,
  'timeline/refresh': voidParamsSchema,
  'timeline/openEditDiff': z.object({ editId: z.string().min(1).max(500) }),
  'timeline/revealEdit': z.object({ editId: z.string().min(1).max(500) }),
  'timeline/openNote': z.object({ sha: shaSchema }),
  'timeline/openFile': z.object({ file: repoPathSchema }),
  'timeline/filterChanged': z.object({
    agents: z.array(z.string().max(100)).max(50),
    sessionKey: z.string().max(500).nullable(),
    file: z.string().max(4096).nullable(),
    text: z.string().max(1000),
  }),
};

/** A validated inbound Timeline message. */
export type TimelineInbound = InboundOf<typeof timelineMessageSchemas>;

/** Validate a raw message from the Timeline webview: unknown methods and bad params are rejected. */
export const parseTimelineMessage = createInboundParser(timelineMessageSchemas);

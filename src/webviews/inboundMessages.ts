/**
 * Validation of messages received from a webview (the trust boundary, docs/webviews.md §3).
 * Each view declares one zod schema per accepted method; anything else is rejected and counted,
 * never thrown. Host-only: keeps zod out of the browser bundles.
 */
import { z } from 'zod';
import type { Counters, Logger } from '../core/ports';
import { isAbbreviatedObjectId } from '../core/git/objectId';
import { isSafeRelPath } from '../core/git/repoPath';

const envelopeSchema = z.object({
  id: z.string().min(1).max(200),
  method: z.string().min(1).max(200),
  params: z.unknown().optional(),
});

/** Params of a `void` call: absent, null or an empty object. */
export const voidParamsSchema = z.union([z.undefined(), z.null(), z.object({}).strict()]).transform(() => undefined);

export type InboundRejection = 'malformed' | 'unknownMethod' | 'invalidParams';

export type InboundResult<M> = { ok: true; message: M } | { ok: false; reason: InboundRejection; method?: string };

/** A full or abbreviated commit id. */
export const shaSchema = z.string().refine(isAbbreviatedObjectId, 'not an object id');
/** Repository-relative path: no absolute paths, no `..` segments, no NUL. */
export const repoPathSchema = z.string().refine(isSafeRelPath, 'not a repository-relative path');

type SchemaMap = Record<string, z.ZodTypeAny>;

/** The typed message for a schema map: `{ id, method, params }` with the schema's output type. */
export type InboundOf<S extends SchemaMap> = { [K in keyof S & string]: { id: string; method: K; params: z.output<S[K]> } }[keyof S &
  string];

/** Build a parser for one view's inbound methods. */
export function createInboundParser<S extends SchemaMap>(schemas: S): (raw: unknown) => InboundResult<InboundOf<S>> {
  return (raw) => {
    const env = envelopeSchema.safeParse(raw);
    if (!env.success) return { ok: false, reason: 'malformed' };
    const { id, method, params } = env.data;
    if (!Object.prototype.hasOwnProperty.call(schemas, method)) return { ok: false, reason: 'unknownMethod', method };
    const parsed = schemas[method].safeParse(params);
    if (!parsed.success) return { ok: false, reason: 'invalidParams', method };
    return { ok: true, message: { id, method, params: parsed.data } as InboundOf<S> };
  };
}

/**
 * Parse, and on rejection count it (`<view>.inbound.<reason>`) and log at debug level (method
 * name only: params may hold prompt text). Returns undefined for rejected messages.
 */
export function acceptInbound<M>(
  parse: (raw: unknown) => InboundResult<M>,
  raw: unknown,
  view: string,
  log: Logger,
  counters?: Counters,
): M | undefined {
  const result = parse(raw);
  if (result.ok) return result.message;
  counters?.inc(`${view}.inbound.${result.reason}`);
  const method = result.method !== undefined ? ` ${result.method.slice(0, 80)}` : '';
  log.debug(`${view}: ignored ${result.reason} message${method}`);
  return undefined;
}

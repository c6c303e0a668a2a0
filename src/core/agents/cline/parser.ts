import type { TranscriptContext } from '../parserTypes';
import { ClineTaskParser } from './clineTaskParser';
import { clineTaskPathInfo } from './pathInfo';
import { clineEditTools } from './tools';

/** Cline's task history (docs/transcripts.md §7); the Cline family's shared parser with Cline's tools. */
export class ClineParser extends ClineTaskParser {
  constructor(ctx: TranscriptContext) {
    super('cline', ctx, clineTaskPathInfo, clineEditTools);
  }
}

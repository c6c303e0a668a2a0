import { ClineTaskParser } from '../cline/clineTaskParser';
import { clineTaskPathInfo } from '../cline/pathInfo';
import type { TranscriptContext } from '../parserTypes';
import { kiloEditTools } from './tools';

/** Kilo Code's legacy task history (docs/transcripts.md §9): the Cline family's parser with Kilo's tools. */
export class KiloParser extends ClineTaskParser {
  constructor(ctx: TranscriptContext) {
    super('kilo', ctx, clineTaskPathInfo, kiloEditTools);
  }
}

import { ClineTaskParser } from '../cline/clineTaskParser';
import { clineTaskPathInfo } from '../cline/pathInfo';
import type { TranscriptContext } from '../parserTypes';
import { rooEditTools } from './tools';

/** Roo Code's task history (docs/transcripts.md §8): the Cline family's parser with Roo's tools. */
export class RooParser extends ClineTaskParser {
  constructor(ctx: TranscriptContext) {
    super('roo', ctx, clineTaskPathInfo, rooEditTools);
  }
}

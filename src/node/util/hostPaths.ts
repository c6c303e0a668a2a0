import { pathRulesFor, type PathRules } from '../../core/git/repoPath';

/** The path rules of the machine this runs on (see `src/core/git/repoPath.ts`). */
export const hostPathRules: PathRules = pathRulesFor(process.platform);

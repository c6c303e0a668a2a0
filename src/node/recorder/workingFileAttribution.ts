import { commitAttribution, type AttributedFile, type FileEditEvidence } from '../../core/attribution/commitAttribution';
import type { EditPairDiff } from '../../core/attribution/lineAttribution';
import type { CommitDiffs } from '../attribution/commitDiffs';
import type { JournalPair } from '../../core/model/journalPairs';

/**
 * Line attribution of a file that is not committed yet: the same 3-diff as a commit
 * (docs/note-format.md §3.2, src/core/attribution/commitAttribution.ts), with "committed" =
 * the blob of the current text and "parent" = the file's blob at HEAD (the empty blob when HEAD
 * has no such file). `pairs` are the file's unconsumed agent edits (any order; sorted by time
 * here). Pairs whose blobs cannot be diffed are skipped. Never throws for a single pair.
 */
export async function workingFileAttribution(
  diffs: CommitDiffs,
  input: { path: string; parentBlob: string; currentBlob: string; pairs: readonly JournalPair[] },
): Promise<AttributedFile> {
  const ordered = input.pairs.filter((p) => p.postBlob !== undefined).sort((a, b) => a.time - b.time);
  const diff1 = await diffs.blobDiff(input.parentBlob, input.currentBlob);
  const pairDiffs: EditPairDiff[] = [];
  for (const p of ordered) {
    if (!p.preBlob || !p.postBlob) continue;
    try {
      const [diff2, diff3] = await Promise.all([
        diffs.blobDiff(p.preBlob, input.currentBlob),
        diffs.blobDiff(p.postBlob, input.currentBlob),
      ]);
      pairDiffs.push({
        pairId: `${p.sessionId}/${p.pairId}`,
        preBlob: p.preBlob,
        postBlob: p.postBlob,
        diff2,
        diff3,
        interactionKey: p.interactionKey,
        agent: p.agent,
      });
    } catch {
      // a blob of this pair is missing (pruned objects, another clone): the other pairs still count
    }
  }
  const edits: FileEditEvidence[] = ordered.map((p) => ({
    interactionKey: p.interactionKey,
    agent: p.agent,
    postBlob: p.postBlob as string,
    ...(p.editAdded !== undefined && p.editDeleted !== undefined ? { editAdded: p.editAdded, editDeleted: p.editDeleted } : {}),
    ...(p.preBlob ? { pairId: `${p.sessionId}/${p.pairId}` } : {}),
  }));
  const result = commitAttribution({
    files: [
      { path: input.path, byAi: true, generated: false, ignored: false, committedBlob: input.currentBlob, diff1, pairs: pairDiffs, edits },
    ],
    hasEditData: true,
  });
  return result.files[0];
}

/** What RepositoryRecorder.recordCommit did. */
export type RecordOutcome =
  | { kind: 'written'; noteBytes: number; aiRatio: number; method: string; redactions: number }
  | { kind: 'exists' }
  | { kind: 'human-only' }
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; reason: string };

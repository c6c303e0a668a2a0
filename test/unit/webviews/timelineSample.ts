/** A small Timeline snapshot used by the state and render tests. */
import type { TimelineState } from '../../../src/webviews/timeline/protocol';

export function sampleTimeline(): TimelineState {
  return {
    sessions: [
      { key: 'claude:s1', agent: 'claude', sessionId: '6f1d2c3b-8a4e-4f5d-9b6c-1e2f3a4b5c6d', model: 'claude-opus-4-6', startedAt: '2026-03-02T09:00:00Z', lastActivityAt: '2026-03-02T09:40:00Z', active: false },
      { key: 'cursor:c1', agent: 'cursor', sessionId: 'conv-demo-1', model: 'gpt-5', startedAt: '2026-03-03T10:00:00Z', lastActivityAt: '2026-03-03T10:30:00Z', active: true },
    ],
    entries: [
      { kind: 'prompt', id: 'p1', sessionKey: 'claude:s1', turn: 1, time: '2026-03-02T09:01:00Z', firstLine: 'Create a Todo type', text: 'Create a Todo type\nin src/todo.ts', response: 'Created `src/todo.ts`.' },
      { kind: 'edit', id: 'e1', sessionKey: 'claude:s1', turn: 1, time: '2026-03-02T09:02:00Z', file: 'src/todo.ts', added: 12, removed: 0, origin: 'ai', hasBlobs: true },
      { kind: 'edit', id: 'e2', sessionKey: 'claude:s1', turn: 1, time: '2026-03-02T09:03:00Z', file: 'src/store.ts', added: 30, removed: 2, origin: 'ai', hasBlobs: false },
      { kind: 'edit', id: 'e3', sessionKey: null, turn: null, time: '2026-03-02T09:20:00Z', file: 'src/store.ts', added: 3, removed: 1, origin: 'human', hasBlobs: true },
      { kind: 'commit', id: 'c1', sha: '07e49a78a568f2f913b469fb894f90c368a6ba64', short: '07e49a7', subject: 'feat: add Todo model', time: '2026-03-02T09:31:50Z', aiRatio: 88, method: 'line', agent: 'claude', noted: true, sessionKey: 'claude:s1', files: ['src/store.ts', 'src/todo.ts'] },
      { kind: 'prompt', id: 'p2', sessionKey: 'cursor:c1', turn: 1, time: '2026-03-03T10:05:00Z', firstLine: 'Fetch forecasts', text: 'Fetch forecasts from Open-Meteo', response: null },
      { kind: 'edit', id: 'e4', sessionKey: 'cursor:c1', turn: 1, time: '2026-03-03T10:06:00Z', file: 'src/api.ts', added: 39, removed: 1, origin: 'ai', hasBlobs: true },
      { kind: 'commit', id: 'c2', sha: '5952e93ec0163e0ecee07f866f6a14652340fd96', short: '5952e93', subject: 'fix: time out slow requests', time: '2026-03-03T11:00:00Z', aiRatio: null, method: null, agent: null, noted: false, files: ['src/api.ts'] },
    ],
    strings: {},
  };
}

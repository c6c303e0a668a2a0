import * as assert from 'node:assert/strict';
import { aiRatio, countEligibleFiles, isRatioEligible, percent } from '../../../src/core/attribution/aiRatio';

describe('aiRatio', () => {
  it('percent divides first, then rounds half-up (CLI order)', () => {
    assert.equal(percent(29, 200), 14);
    assert.equal(percent(57, 200), 28);
    assert.equal(percent(1, 8), 13);
    assert.equal(percent(1, 200), 1);
    assert.equal(percent(1, 3), 33);
    assert.equal(percent(2, 3), 67);
    assert.equal(percent(0, 0), 0);
  });

  it('excludes generated, ignored and path-heuristic files from the file ratio', () => {
    const files = [
      { path: 'a.ts', by_ai: true },
      { path: 'b.ts', by_ai: false },
      { path: 'gen.ts', by_ai: true, generated: true },
      { path: 'dist/x.js', by_ai: true, ai_ratio_excluded: true },
      { path: 'x.js.map', by_ai: true },
    ];
    assert.deepEqual(countEligibleFiles(files), { total: 2, ai: 1 });
    assert.equal(isRatioEligible({ path: 'src/api.pb.go', by_ai: true }), false);
    assert.deepEqual(aiRatio(files), { ai_ratio: 50, method: 'file' });
  });

  it('line counts with added lines ⇒ method line, ratio over lines, lines kept', () => {
    const r = aiRatio([{ path: 'a.ts', by_ai: true }], { ai_added: 29, total_added: 200, deleted: 7 });
    assert.deepEqual(r, { ai_ratio: 14, method: 'line', lines: { ai_added: 29, total_added: 200, deleted: 7 } });
    assert.deepEqual(Object.keys(r), ['ai_ratio', 'method', 'lines']);
    assert.deepEqual(Object.keys(r.lines ?? {}), ['ai_added', 'total_added', 'deleted']);
  });

  it('deletion-only ⇒ method file with lines {0,0,N} when eligible files exist, else none/0', () => {
    assert.deepEqual(aiRatio([{ path: 'store.ts', by_ai: true }], { ai_added: 0, total_added: 0, deleted: 12 }), {
      ai_ratio: 100,
      method: 'file',
      lines: { ai_added: 0, total_added: 0, deleted: 12 },
    });
    assert.deepEqual(aiRatio([{ path: 'gen.ts', by_ai: true, generated: true }], { ai_added: 0, total_added: 0, deleted: 3 }), {
      ai_ratio: 0,
      method: 'none',
      lines: { ai_added: 0, total_added: 0, deleted: 3 },
    });
  });

  it('no files and no lines ⇒ file, 0', () => {
    assert.deepEqual(aiRatio([]), { ai_ratio: 0, method: 'file' });
  });
});

import * as assert from 'node:assert/strict';
import { SpawnPacer } from '../../../../src/node/util/spawnPacer';

/** Busy-waits `ms` on this thread, as a process start does. */
function burn(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* synchronous work */
  }
}

/** Counts turns of the event loop (one per check phase) until stopped. */
function turnCounter(): { readonly turn: number; stop(): void } {
  let turn = 0;
  let on = true;
  const step = () => {
    if (!on) return;
    turn++;
    setImmediate(step);
  };
  setImmediate(step);
  return {
    get turn() {
      return turn;
    },
    stop() {
      on = false;
    },
  };
}

describe('SpawnPacer', () => {
  it('spreads synchronous starts over turns of the event loop: at most its budget per turn, one start always allowed', async () => {
    const pacer = new SpawnPacer(6);
    const turns = turnCounter();
    const seen: { i: number; turn: number }[] = [];
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        pacer.start(() => {
          seen.push({ i, turn: turns.turn });
          burn(4);
          return i * 10;
        }),
      ),
    );
    turns.stop();
    assert.deepEqual(
      results,
      Array.from({ length: 12 }, (_, i) => i * 10),
      'every start ran and returned its result',
    );
    assert.deepEqual(
      seen.map((s) => s.i),
      Array.from({ length: 12 }, (_, i) => i),
      'in arrival order',
    );
    const perTurn = new Map<number, number>();
    for (const s of seen) perTurn.set(s.turn, (perTurn.get(s.turn) ?? 0) + 1);
    // 4 ms each against a 6 ms budget: the second start of a turn uses it up, a third waits
    assert.ok(Math.max(...perTurn.values()) <= 2, `starts per turn: ${JSON.stringify([...perTurn])}`);
    assert.ok(perTurn.size >= 6, `spread over ${perTurn.size} turns`);
  });

  it('lets one start through per turn however long it takes, and never runs two at once', async () => {
    const pacer = new SpawnPacer(1);
    const turns = turnCounter();
    let running = 0;
    const seen: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, () =>
        pacer.start(() => {
          running++;
          assert.equal(running, 1);
          seen.push(turns.turn);
          burn(3);
          running--;
        }),
      ),
    );
    turns.stop();
    assert.equal(new Set(seen).size, 4, `each start in a turn of its own: ${seen.join(',')}`);
  });

  it('passes a throw from the start on and goes on with the next start', async () => {
    const pacer = new SpawnPacer(6);
    const results = await Promise.allSettled([
      pacer.start(() => 1),
      pacer.start(() => {
        throw new Error('ENOMEM');
      }),
      pacer.start(() => 3),
    ]);
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
      [1, 'ENOMEM', 3],
    );
    // a later start, after the queue drained, runs at once
    assert.equal(await pacer.start(() => 'later'), 'later');
  });
  it('startTracked: a start that happens microtasks later is paced and charged like a synchronous one (simple-git)', async () => {
    const pacer = new SpawnPacer(6);
    const turns = turnCounter();
    const seen: number[] = [];
    let running = 0;
    const results = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        pacer.startTracked(async (started) => {
          // the library awaits a few promises, then starts the process and tells us
          await Promise.resolve();
          await Promise.resolve();
          running++;
          assert.equal(running, 1, 'never two starts at once');
          seen.push(turns.turn);
          burn(4);
          running--;
          started();
          await new Promise((r) => setTimeout(r, 5)); // the process runs; the slot is free meanwhile
          return i;
        }),
      ),
    );
    turns.stop();
    assert.deepEqual(results, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const perTurn = new Map<number, number>();
    for (const t of seen) perTurn.set(t, (perTurn.get(t) ?? 0) + 1);
    assert.ok(Math.max(...perTurn.values()) <= 2, `starts per turn: ${JSON.stringify([...perTurn])}`);
    assert.ok(perTurn.size >= 4, `spread over ${perTurn.size} turns`);
  });

  it('startTracked: a start that never happens (refused, thrown) frees the slot when it settles', async () => {
    const pacer = new SpawnPacer(6);
    const results = await Promise.allSettled([
      pacer.startTracked(() => Promise.reject(new Error('refused'))),
      pacer.startTracked(() => {
        throw new Error('sync');
      }),
      pacer.startTracked(async (started) => (started(), started(), 'twice is once')),
    ]);
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
      ['refused', 'sync', 'twice is once'],
    );
    assert.equal(await pacer.start(() => 'later'), 'later');
  });
});

import * as assert from 'node:assert/strict';
import { Limiter } from '../../../../src/node/util/limiter';
import { TimeSlice } from '../../../../src/node/util/timeSlice';

describe('Limiter', () => {
  it('runs at most max tasks at once, in arrival order, and passes results and errors through', async () => {
    const l = new Limiter(3);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (i: number) => async () => {
      running++;
      peak = Math.max(peak, running);
      order.push(i);
      await new Promise((r) => setTimeout(r, 2));
      running--;
      if (i === 7) throw new Error('seven');
      return i * 2;
    };
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => l.run(task(i))));
    assert.equal(peak, 3);
    assert.deepEqual(
      order,
      Array.from({ length: 20 }, (_, i) => i),
    );
    assert.equal(results[7].status, 'rejected');
    assert.deepEqual(
      results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<number>).value),
      Array.from({ length: 20 }, (_, i) => i * 2).filter((v) => v !== 14),
    );
  });

  it('hands a finished slot to the waiting task: a caller arriving while it passes waits its turn', async () => {
    // a caller arriving 0..7 microtasks after the first task ends: one of them lands between the
    // slot being released and the waiting task resuming, where a counter-based limiter admits two
    const after = (hops: number, fn: () => void) => (hops === 0 ? fn() : queueMicrotask(() => after(hops - 1, fn)));
    for (let hops = 0; hops < 8; hops++) {
      const l = new Limiter(1);
      let running = 0;
      let peak = 0;
      const task = (gate?: Promise<void>) => async () => {
        running++;
        peak = Math.max(peak, running);
        await (gate ?? new Promise((r) => setTimeout(r, 1)));
        running--;
      };
      let open!: () => void;
      const gate = new Promise<void>((r) => (open = r));
      const a = l.run(task(gate));
      const b = l.run(task());
      let c: Promise<void> | undefined;
      void gate.then(() =>
        after(hops, () => {
          c = l.run(task());
        }),
      );
      open();
      await Promise.all([a, b]);
      await c;
      assert.equal(peak, 1, `never two at once (caller ${hops} microtasks later)`);
    }
  });
});

describe('TimeSlice', () => {
  it('is due only after its budget, and a pause lets timers run and starts a new slice', async () => {
    const slice = new TimeSlice(5);
    const t0 = performance.now();
    assert.equal(slice.due, false);
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    while (!slice.due) {
      /* busy: the timer cannot run */
    }
    assert.ok(performance.now() - t0 >= 5, 'not due before the budget is used');
    assert.equal(timerRan, false);
    await slice.pause();
    await new Promise((r) => setTimeout(r, 1));
    assert.equal(timerRan, true);
    const slice2 = new TimeSlice(1000);
    await slice2.pause();
    assert.equal(slice2.due, false, 'a pause starts a new slice');
  });
});

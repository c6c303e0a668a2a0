import * as assert from 'node:assert/strict';
import { Limiter } from '../../../../src/node/util/limiter';
import { TimeSlice, yieldToEventLoop } from '../../../../src/node/util/timeSlice';

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
    assert.deepEqual(order, Array.from({ length: 20 }, (_, i) => i));
    assert.equal(results[7].status, 'rejected');
    assert.deepEqual(results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<number>).value), Array.from({ length: 20 }, (_, i) => i * 2).filter((v) => v !== 14));
    assert.equal(l.pending, 0);
  });
});

describe('TimeSlice', () => {
  it('lets a timer run during a long loop once the budget is used up', async () => {
    const slice = new TimeSlice(5);
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    const until = performance.now() + 40;
    let yields = 0;
    while (performance.now() < until) {
      if (slice.due) {
        yields++;
        await slice.maybeYield();
      }
    }
    assert.ok(timerRan, 'the timer ran while the loop was going');
    assert.ok(yields >= 3 && yields <= 10, `yields ${yields}`);
  });

  it('does not yield before the budget is used', async () => {
    const slice = new TimeSlice(1000);
    assert.equal(slice.due, false);
    let ran = false;
    setImmediate(() => (ran = true));
    await slice.maybeYield();
    assert.equal(ran, false);
    await yieldToEventLoop();
    assert.equal(ran, true);
  });
});

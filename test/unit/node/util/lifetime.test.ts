import * as assert from 'node:assert/strict';
import { Lifetime, LifetimeEnded } from '../../../../src/node/util/lifetime';

describe('Lifetime', () => {
  it('a step that was pending when the lifetime ended releases its result and throws LifetimeEnded', async () => {
    let open!: (v: string) => void;
    const life = new Lifetime();
    const released: string[] = [];
    const p = life.step(new Promise<string>((r) => (open = r)), (v) => released.push(v));
    life.end();
    open('store');
    await assert.rejects(p, LifetimeEnded);
    assert.deepEqual(released, ['store']);
    await assert.rejects(life.step(Promise.resolve(1)), LifetimeEnded, 'no step begins after the end');
    assert.throws(() => life.check(), LifetimeEnded);
  });

  it('returns the value of a step while alive, counts steps and calls onStep as each begins', async () => {
    const seen: number[] = [];
    const life = new Lifetime((n) => seen.push(n));
    assert.equal(await life.step(Promise.resolve('a')), 'a');
    assert.equal(await life.step(() => Promise.resolve('b')), 'b');
    assert.deepEqual(seen, [0, 1]);
    assert.equal(life.stepCount, 2);
  });

  it('ending from onStep (the test seam) stops the start-up at that step', async () => {
    const life = new Lifetime((n) => n === 1 && life.end());
    const ran: string[] = [];
    const start = async () => {
      ran.push(await life.step(Promise.resolve('one')));
      ran.push(await life.step(Promise.resolve('two')));
      ran.push(await life.step(Promise.resolve('three')));
    };
    await assert.rejects(start(), LifetimeEnded);
    assert.deepEqual(ran, ['one']);
    assert.equal(life.stepCount, 2);
  });

  it('disposes owned resources newest first at the end, and one owned after the end at once', () => {
    const life = new Lifetime();
    const order: string[] = [];
    life.own({ dispose: () => order.push('a') });
    life.own({ dispose: () => order.push('b') });
    life.own({
      dispose: () => {
        throw new Error('a failing dispose does not stop the others');
      },
    });
    assert.equal(life.live, 3);
    life.end();
    life.end();
    assert.deepEqual(order, ['b', 'a']);
    assert.equal(life.live, 0);
    life.own({ dispose: () => order.push('late') });
    assert.deepEqual(order, ['b', 'a', 'late']);
    assert.equal(life.live, 0);
  });

  it('a failing release still ends the step with LifetimeEnded', async () => {
    const life = new Lifetime();
    const p = life.step(Promise.resolve(1), () => Promise.reject(new Error('release failed')));
    life.end();
    await assert.rejects(p, LifetimeEnded);
  });
});

import { describe, expect, it } from 'vitest';
import { AbortedError } from '../../src/client/errors';
import { WaiterQueue } from '../../src/client/waiter-queue';

/** The waiting line both rate gates (in-process and Redis) serve their slots from. */
describe('WaiterQueue', () => {
  it('serves callers first come first served; one that aborts leaves the line and the next is served', async () => {
    const q = new WaiterQueue<number>();
    const ac = new AbortController();
    const first = q.wait();
    const second = q.wait(ac.signal);
    const third = q.wait();
    ac.abort();
    await expect(second).rejects.toBeInstanceOf(AbortedError);
    expect(q.length).toBe(2);
    expect(q.resolveNext(1)).toBe(true);
    expect(q.resolveNext(2)).toBe(true);
    expect(q.resolveNext(3)).toBe(false);
    expect([await first, await third]).toEqual([1, 2]);
  });

  it('an already aborted signal is refused at once; rejectAll fails everyone waiting', async () => {
    const q = new WaiterQueue<number>();
    const ac = new AbortController();
    ac.abort();
    await expect(q.wait(ac.signal)).rejects.toBeInstanceOf(AbortedError);
    const a = q.wait();
    const b = q.wait();
    q.rejectAll(new Error('day spent'));
    await expect(a).rejects.toThrow('day spent');
    await expect(b).rejects.toThrow('day spent');
    expect(q.length).toBe(0);
  });

  it('drained callers are handed on: aborting afterwards no longer touches this line', async () => {
    const q = new WaiterQueue<number>();
    const ac = new AbortController();
    const p = q.wait(ac.signal);
    const [w] = q.drain();
    ac.abort();
    w!.resolve(7);
    expect(await p).toBe(7);
  });
});

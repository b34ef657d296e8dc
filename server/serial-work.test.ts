import { describe, expect, it } from 'vitest';
import { createCoalescingRunner, createSerialQueue } from './serial-work.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('createSerialQueue', () => {
  it('runs tasks one at a time in order, a failure not stopping the next', async () => {
    const queue = createSerialQueue();
    const log: string[] = [];
    let active = 0;
    const task = (name: string, fail = false) => async () => {
      active++;
      expect(active).toBe(1);
      await tick();
      log.push(name);
      active--;
      if (fail) throw new Error(name);
      return name;
    };
    const a = queue.run(task('a'));
    const b = queue.run(task('b', true));
    const c = queue.run(task('c'));
    await expect(a).resolves.toBe('a');
    await expect(b).rejects.toThrow('b');
    await expect(c).resolves.toBe('c');
    expect(log).toEqual(['a', 'b', 'c']);
  });

  it('idle() waits for tasks added while it waits', async () => {
    const queue = createSerialQueue();
    const log: string[] = [];
    void queue.run(async () => {
      await tick();
      void queue.run(async () => {
        await tick();
        log.push('second');
      });
      log.push('first');
    });
    await queue.idle();
    expect(log).toEqual(['first', 'second']);
  });
});

describe('createCoalescingRunner', () => {
  it('turns any number of kicks during a run into one more run', async () => {
    let runs = 0;
    const runner = createCoalescingRunner(async () => {
      runs++;
      await tick();
    }, () => undefined);
    runner.kick();
    runner.kick();
    runner.kick();
    runner.kick();
    expect(runner.busy).toBe(true);
    await runner.idle();
    expect(runs).toBe(2);
    expect(runner.busy).toBe(false);
  });

  it('reports a failed run and keeps going; takes no kick once stopped', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const runner = createCoalescingRunner(async () => {
      runs++;
      if (runs === 1) throw new Error('first');
    }, (e) => errors.push(e));
    runner.kick();
    await runner.idle();
    runner.kick();
    await runner.idle();
    expect(runs).toBe(2);
    expect(errors).toHaveLength(1);
    await runner.stop();
    runner.kick();
    expect(runner.busy).toBe(false);
    expect(runs).toBe(2);
  });
});

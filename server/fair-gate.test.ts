import { describe, expect, it } from 'vitest';
import { createFairGate, GateFullError } from './fair-gate.ts';

/** A task that finishes when told, recording when it started. */
function controlled(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { task: async () => (log.push(name), done), finish };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('createFairGate', () => {
  it('runs at most `slots` tasks and `perKey` of one key, and hands a free slot to the keys in turn', async () => {
    const gate = createFairGate({ slots: 2, perKey: 1, queuedPerKey: 10, retryAfterSeconds: 5 });
    const log: string[] = [];
    const tasks = ['a1', 'a2', 'a3', 'b1', 'c1', 'b2'].map((name) => ({ name, ...controlled(log, name) }));
    const runs = tasks.map((t) => gate.run(t.name[0]!, t.task));
    await tick();
    expect(log).toEqual(['a1', 'b1']);
    expect(gate.load()).toEqual({ running: 2, waiting: 4 });
    tasks[0]!.finish(); // a1 done: c's turn comes before a's second (a queued first, but a just ran)
    await tick();
    expect(log).toEqual(['a1', 'b1', 'c1']);
    tasks[3]!.finish(); // b1 done
    await tick();
    expect(log).toEqual(['a1', 'b1', 'c1', 'a2']);
    for (const t of tasks) t.finish();
    await Promise.all(runs);
    expect(log.slice(4).sort()).toEqual(['a3', 'b2']);
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses at once a key that has its running and waiting tasks, and no other key', async () => {
    const gate = createFairGate({ slots: 4, perKey: 1, queuedPerKey: 1, retryAfterSeconds: 7 });
    const log: string[] = [];
    const first = controlled(log, 'a1');
    const running = gate.run('a', first.task);
    const waiting = gate.run('a', async () => undefined);
    await expect(gate.run('a', async () => undefined)).rejects.toEqual(new GateFullError('a', 7));
    await expect(gate.run('b', async () => 'b ran')).resolves.toBe('b ran');
    first.finish();
    await Promise.all([running, waiting]);
  });

  it('frees the slot when a task fails', async () => {
    const gate = createFairGate({ slots: 1, perKey: 1, queuedPerKey: 5, retryAfterSeconds: 1 });
    await expect(gate.run('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate.run('a', async () => 2)).resolves.toBe(2);
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
  });
});

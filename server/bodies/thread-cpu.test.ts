import { describe, expect, it } from 'vitest';
import { currentThreadId, threadCpuMs } from './thread-cpu.ts';

describe.runIf(process.platform === 'linux')('thread CPU time', () => {
  it("reads the calling thread's id and its CPU time, which grows while it computes", () => {
    const tid = currentThreadId();
    expect(tid).toBeGreaterThan(0);
    const before = threadCpuMs(tid!)!;
    // Computes until the clock has moved 50 ms (however loaded the machine), or gives up after 30 s of wall time.
    const giveUp = Date.now() + 30_000;
    let x = 0;
    while (threadCpuMs(tid!)! - before < 50 && Date.now() < giveUp) for (let i = 0; i < 100_000; i++) x += Math.sqrt(x + i);
    expect(x).toBeGreaterThan(0);
    expect(threadCpuMs(tid!)! - before).toBeGreaterThanOrEqual(50);
  });

  it('says null for a thread that is not there', () => {
    expect(threadCpuMs(2 ** 31 - 1)).toBeNull();
  });
});

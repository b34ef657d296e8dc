/**
 * Reads the service answers while slow work runs beside them: the proof
 * that the work is off the request thread (issue 18), asserted as an order
 * (every read finishes before the work) and a generous bound, not a timing
 * of the work itself.
 */
import { expect } from 'vitest';
import type { TestService } from './test-service.ts';

/**
 * Starts `work`, gives it 200 ms to reach its thread, then sends three
 * `GET /api/v1/channels`: each must answer 200 before `work` settles and
 * within 1 s (a read is milliseconds; work on the request thread would make
 * it wait seconds). Returns what `work` resolves to.
 */
export async function expectReadsDuring<T>(t: TestService, key: string, what: string, work: () => Promise<T>): Promise<T> {
  let done = false;
  const running = work().finally(() => {
    done = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const latencies: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const read = await t.request('GET', '/api/v1/channels', { key });
    latencies.push(performance.now() - started);
    expect(read.status).toBe(200);
    expect(done, `the read waited for ${what}`).toBe(false);
  }
  expect(Math.max(...latencies)).toBeLessThan(1_000);
  return running;
}

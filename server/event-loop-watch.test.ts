import { expect, it } from 'vitest';
import type { Logger } from './logger.ts';
import { watchEventLoop } from './event-loop-watch.ts';

function recordingLog(): Logger & { lines: Array<{ level: string; message: string; fields?: Record<string, unknown> }> } {
  const lines: Array<{ level: string; message: string; fields?: Record<string, unknown> }> = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push({ level, message, fields });
  const log = { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: () => log } as unknown as Logger & { lines: typeof lines };
  return log;
}

const block = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

it('measures how long the thread stalled, and reports only periods in which builds ran', async () => {
  const log = recordingLog();
  const watch = watchEventLoop(log, 1);
  try {
    // A period without builds: nothing logged, however the thread stalled.
    await new Promise((resolve) => setTimeout(resolve, 50));
    block(150);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(log.lines).toEqual([]);
    // A build that stalled the thread.
    watch.built();
    await new Promise((resolve) => setTimeout(resolve, 20));
    block(250);
    const deadline = Date.now() + 10_000;
    while (log.lines.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(log.lines[0]).toMatchObject({ message: 'event loop delay while building', fields: { builds: 1 } });
    expect(log.lines[0]!.fields!.maxMs as number).toBeGreaterThanOrEqual(200);
  } finally {
    watch.stop();
  }
});

it('takes a period on demand', async () => {
  const watch = watchEventLoop(recordingLog(), 0);
  try {
    watch.built();
    await new Promise((resolve) => setTimeout(resolve, 20));
    block(120);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const report = watch.take();
    expect(report.builds).toBe(1);
    expect(report.maxMs).toBeGreaterThanOrEqual(100);
    expect(watch.take().builds).toBe(0);
  } finally {
    watch.stop();
  }
});

/**
 * The build queue over a builder that counts its calls (the queue's job is
 * when to build, not what: the builder has tests of its own).
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { emptyReport, type BuildReport } from './builder/build-report.ts';
import type { SiteBuilder } from './builder/site-builder.ts';
import { createBuildQueue } from './build-queue.ts';

function countingBuilder(reports: Array<Partial<BuildReport> | Error>): SiteBuilder & { calls: number } {
  const builder = {
    calls: 0,
    fullBuild: async () => emptyReport(),
    async applyEvents() {
      const next = reports[builder.calls++] ?? {};
      await new Promise((r) => setImmediate(r));
      if (next instanceof Error) throw next;
      return { ...emptyReport(), ...next };
    },
    publicState: async () => {
      throw new Error('not used');
    },
    newestEvent: async () => 0,
    hasUnbuiltEvents: async () => false,
    heldState: () => null,
    onFilesPlaced: () => undefined,
    release: async () => undefined,
    repairOutput: async () => null,
  };
  return builder;
}

describe('build queue', () => {
  it('coalesces kicks during a build into one more build, and tells listeners only of builds that changed something', async () => {
    const builder = countingBuilder([{ written: 1 }, {}]);
    const queue = createBuildQueue(builder, createLogger('silent'));
    const heard: BuildReport[] = [];
    queue.onBuilt((r) => heard.push(r));
    queue.kick();
    queue.kick();
    queue.kick();
    await queue.idle();
    expect(builder.calls).toBe(2);
    expect(heard.map((r) => r.written)).toEqual([1]);
  });

  it('a failed build leaves the events for the next kick', async () => {
    const builder = countingBuilder([new Error('disk full'), { removed: 1 }]);
    const queue = createBuildQueue(builder, createLogger('silent'));
    const heard: BuildReport[] = [];
    queue.onBuilt((r) => heard.push(r));
    queue.kick();
    await queue.idle();
    queue.kick();
    await queue.idle();
    expect(builder.calls).toBe(2);
    expect(heard.map((r) => r.removed)).toEqual([1]);
  });

  it('settle() waits for the build it asks for, or the time limit', async () => {
    const builder = countingBuilder([{ written: 2 }]);
    const queue = createBuildQueue(builder, createLogger('silent'));
    await queue.settle(5000);
    expect(builder.calls).toBe(1);
    await queue.stop();
    queue.kick();
    await queue.idle();
    expect(builder.calls).toBe(1);
  });

  it('a full report (another process\'s build followed) is told even when nothing was written here', async () => {
    const builder = countingBuilder([{ full: true }]);
    const queue = createBuildQueue(builder, createLogger('silent'));
    const heard: BuildReport[] = [];
    queue.onBuilt((r) => heard.push(r));
    queue.kick();
    await queue.idle();
    expect(heard).toHaveLength(1);
  });

  it('waits while a change is under way, then builds once for both (a publish moderated in two jobs)', async () => {
    const builder = countingBuilder([{ written: 2 }]);
    // The second translation's job runs for three more polls, then its change is announced with the first's.
    let polls = 0;
    const queue = createBuildQueue(builder, createLogger('silent'), { hasWork: async () => true, underWay: async () => ++polls <= 3, maxMs: 60_000, pollMs: 1 });
    queue.kick();
    await queue.idle();
    expect(polls).toBe(4);
    expect(builder.calls).toBe(1);
  });

  it('builds after its longest wait even while changes stay under way (a job that runs long)', async () => {
    const builder = countingBuilder([{ written: 1 }]);
    let polls = 0;
    const queue = createBuildQueue(builder, createLogger('silent'), { hasWork: async () => true, underWay: async () => (polls++, true), maxMs: 20, pollMs: 1 });
    queue.kick();
    await queue.idle();
    expect(builder.calls).toBe(1);
    expect(polls).toBeGreaterThan(0);
  });

  it('does not wait when there is nothing to build, so polls with a job due and never run still let the queue idle', async () => {
    const builder = countingBuilder([]);
    let asked = 0;
    const queue = createBuildQueue(builder, createLogger('silent'), { hasWork: async () => false, underWay: async () => (asked++, true), maxMs: 60_000 });
    queue.start(20);
    await queue.idle();
    queue.kick();
    await queue.idle();
    await queue.stop();
    expect(asked).toBe(0);
    expect(builder.calls).toBeGreaterThan(0);
  });
});

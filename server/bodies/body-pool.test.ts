import { afterEach, describe, expect, it } from 'vitest';
import { BodyRejectedError, processBody, renderMarkdownBody } from '../domain/body/index.ts';
import { PressroomError } from '../domain/errors.ts';
import { BODIES_QUEUED_PER_OWNER, BODIES_RETRY_AFTER_SECONDS, createBodyPool, jobTimeLimitMs, type BodyPool } from './body-pool.ts';

// Within every limit (each per-body total near its maximum, 1 MB) but seconds of parsing: the time limit has to stop it.
const SLOW_HEAD = `${'word *x* and [y](http://x.example/) '.repeat(10).trim()}\n\n`.repeat(500) + `${'*x* '.repeat(10)}\n\n`.repeat(499) + '> quote\n\n'.repeat(499);
const SLOW = { title: 'Slow', contentMarkdown: SLOW_HEAD + 'word '.repeat(Math.floor((999_000 - SLOW_HEAD.length) / 5)) };

let pool: BodyPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('jobTimeLimitMs', () => {
  it('is the limit once per started million characters of the text a task works through', () => {
    const body = (chars: number) => ({ kind: 'body' as const, job: { title: 'T', contentMarkdown: 'a'.repeat(chars) } });
    expect(jobTimeLimitMs(10_000, body(0))).toBe(10_000);
    expect(jobTimeLimitMs(10_000, body(1_000_000))).toBe(10_000);
    expect(jobTimeLimitMs(10_000, body(1_000_001))).toBe(20_000);
    expect(jobTimeLimitMs(10_000, { kind: 'render', markdown: 'a'.repeat(20_000_000) })).toBe(200_000);
    expect(jobTimeLimitMs(10_000, { kind: 'body', job: { title: 'T', contentHtml: 'a'.repeat(1_500_000) } })).toBe(20_000);
  });
});

describe('createBodyPool', () => {
  it('a lazy pool starts its threads at warm() or at the first body, not before', async () => {
    pool = createBodyPool({ threads: 2, timeLimitMs: 30_000, lazy: true });
    expect(pool.started).toBe(0);
    const job = { title: 'T', contentMarkdown: 'Hello.' };
    expect(await pool.process(job)).toEqual(processBody(job));
    expect(pool.started).toBe(2);
    pool.warm();
    expect(pool.started).toBe(2);
  });

  it('prepares and renders a body on a thread, with the same result as in place', async () => {
    pool = createBodyPool({ threads: 1, timeLimitMs: 30_000 });
    const job = { title: 'T', contentMarkdown: '# T\n\nHello *world*, [a link](https://example.com).' };
    expect(await pool.process(job)).toEqual(processBody(job));
  });

  it('renders a stored body on a thread (the refresh at start), the same as in place; one it cannot render in time, in place', async () => {
    pool = createBodyPool({ threads: 2, timeLimitMs: 30_000 });
    const stored = '## Part\n\nHello *world*, [a link](../other) and <img src="x.png">.\n';
    expect(await pool.render(stored)).toEqual(renderMarkdownBody(stored));
    const many = ['One.', 'Two *b*.', 'Three [c](./c).'];
    expect(await Promise.all(many.map((m) => pool!.render(m)))).toEqual(many.map((m) => renderMarkdownBody(m)));
    await pool.close();
    pool = createBodyPool({ threads: 1, timeLimitMs: 1 });
    expect(await pool.render(stored)).toEqual(renderMarkdownBody(stored));
  });

  it('refuses a body over a limit with the limit named, and goes on', async () => {
    pool = createBodyPool({ threads: 1, timeLimitMs: 30_000 });
    const refused = await pool.process({ title: 'T', contentHtml: '<div>'.repeat(10_000) }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BodyRejectedError);
    expect(refused).toMatchObject({ limit: 'htmlDepth' });
    expect((await pool.process({ title: 'T', contentMarkdown: 'ok' })).html).toBe('<p>ok</p>');
    expect(pool.started).toBe(1);
  });

  it('terminates a thread over the time limit, refuses that body, and recovers with a new thread', async () => {
    pool = createBodyPool({ threads: 1, timeLimitMs: 50 });
    const slow = pool.process(SLOW).catch((e: unknown) => e);
    // Queued behind the slow body: its own time limit starts only when a thread takes it, and counts its thread's CPU time.
    const next = pool.process({ title: 'T', contentMarkdown: 'after' });
    const refused = await slow;
    expect(refused).toBeInstanceOf(BodyRejectedError);
    expect(refused).toMatchObject({ limit: 'timeMs' });
    expect((refused as Error).message).toContain('50 ms');
    expect((await next).html).toBe('<p>after</p>');
    expect(pool.started).toBe(2);
  });

  it('runs bodies on several threads at once', async () => {
    pool = createBodyPool({ threads: 2, timeLimitMs: 30_000 });
    const bodies = await Promise.all(Array.from({ length: 6 }, (_, i) => pool!.process({ title: 'T', contentMarkdown: `body ${i}` })));
    expect(bodies.map((b) => b.html)).toEqual(Array.from({ length: 6 }, (_, i) => `<p>body ${i}</p>`));
  });

  it('shares the threads between owners in turn: another owner\'s body does not wait behind one owner\'s many', async () => {
    pool = createBodyPool({ threads: 2, timeLimitMs: 60_000 });
    const finished: string[] = [];
    const slow = Array.from({ length: 2 }, (_, i) => pool!.process(SLOW, 'a').then(() => finished.push(`a${i}`), () => finished.push(`a${i}`)));
    const other = pool.process({ title: 'T', contentMarkdown: 'mine' }, 'b').then(() => finished.push('b'));
    await Promise.all([...slow, other]);
    // One owner runs on at most half the threads: "b" took the other one at once.
    expect(finished[0]).toBe('b');
  }, 120_000);

  it('refuses an owner with 200 bodies waiting at once, with 429 ACCOUNT_BUSY and when to come back, and no other owner', async () => {
    pool = createBodyPool({ threads: 2, timeLimitMs: 60_000, lazy: true });
    // Submitted before the threads are up: every one waits.
    const waiting = Array.from({ length: BODIES_QUEUED_PER_OWNER }, (_, i) => pool!.process({ title: 'T', contentMarkdown: `body ${i}` }, 'a'));
    const refused = await pool.process({ title: 'T', contentMarkdown: 'one more' }, 'a').catch((e: unknown) => e);
    expect(PressroomError.is(refused) && refused.code).toBe('ACCOUNT_BUSY');
    expect((refused as PressroomError).details).toEqual({ retry_after_seconds: BODIES_RETRY_AFTER_SECONDS });
    expect((await pool.process({ title: 'T', contentMarkdown: 'other' }, 'b')).html).toBe('<p>other</p>');
    expect((await Promise.all(waiting)).length).toBe(BODIES_QUEUED_PER_OWNER);
  }, 120_000);

  it('refuses new work once closed', async () => {
    pool = createBodyPool({ threads: 1, timeLimitMs: 30_000 });
    await pool.close();
    await expect(pool.process({ title: 'T', contentMarkdown: 'x' })).rejects.toThrow(/closed/);
  });
});

/**
 * Benchmark of hostile bodies (issue 18): the worst inputs found, each
 * processed in place (time to a stored body or to its refusal), then saved
 * through a real server over loopback while another client reads
 * GET /api/v1/channels every few milliseconds, whose slowest answer is the
 * p99 column (the max, in fact: a stall is what matters).
 *
 * `--scale P` runs the inputs at P percent of their size (the smoke test
 * uses 1). Run directly: `npx tsx scripts/bench/body-bench.ts --scale 100`.
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { systemClock } from '../../server/clock.ts';
import { createApiKey } from '../../server/domain/account/account.service.ts';
import { loadConfig } from '../../server/config.ts';
import { BodyRejectedError, processBody, type BodyJob } from '../../server/domain/body/index.ts';
import { createLogger } from '../../server/logger.ts';
import { startService } from '../../server/main.ts';
import type { BenchFigure } from './run-measurement.ts';

/** The inputs, at `scale` (0–1] of the sizes in issue 18. */
export function hostileBodies(scale: number): Array<{ name: string; job: BodyJob }> {
  const n = (count: number) => Math.max(10, Math.round(count * scale));
  return [
    { name: '"*a" × 100,000', job: { title: 'T', contentMarkdown: '*a'.repeat(n(100_000)) } },
    { name: '">" × 100,000', job: { title: 'T', contentMarkdown: '>'.repeat(n(100_000)) } },
    { name: '"[" × 200,000 + "a" + "]" × 200,000', job: { title: 'T', contentMarkdown: `${'['.repeat(n(200_000))}a${']'.repeat(n(200_000))}` } },
    { name: '500-deep nested list', job: { title: 'T', contentMarkdown: Array.from({ length: n(500) }, (_, k) => `${'  '.repeat(k)}- item`).join('\n') } },
    { name: '5,000-column table', job: { title: 'T', contentMarkdown: `|${'a|'.repeat(n(5_000))}\n|${'-|'.repeat(n(5_000))}\n` } },
    { name: '10,000 nested <div> (HTML)', job: { title: 'T', contentHtml: `${'<div>'.repeat(n(10_000))}x${'</div>'.repeat(n(10_000))}` } },
    { name: '3,000 nested <b> (HTML)', job: { title: 'T', contentHtml: `<p>${'<b>'.repeat(n(3_000))}x</p>` } },
    { name: '1 MB of plain text (the size limit)', job: { title: 'T', contentMarkdown: 'word '.repeat(n(199_999)) } },
    { name: '900 KB of emphasis and links within every limit', job: { title: 'T', contentMarkdown: `${'word *x* and [y] '.repeat(10).trim()}\n\n`.repeat(n(400)) + 'word '.repeat(n(165_000)) } },
    // Shapes that passed the first limits and still took 15 s to 3 min.
    { name: '3,000 blocks of 30 nested quotes', job: { title: 'T', contentMarkdown: Array.from({ length: n(3_000) }, () => `${'> '.repeat(30)}text *em* [l](/x)\n`).join('\n') } },
    { name: '2,000 lines of "*a" × 240', job: { title: 'T', contentMarkdown: Array.from({ length: n(2_000) }, () => `${'*a'.repeat(240)}\n`).join('\n') } },
    { name: '2,000 lines of 20 links', job: { title: 'T', contentMarkdown: Array.from({ length: n(2_000) }, () => `${'[a](http://x.example/) '.repeat(20)}\n`).join('\n') } },
    { name: '499 quotes between blank lines (at the limit)', job: { title: 'T', contentMarkdown: '> quote text\n\n'.repeat(n(499)) } },
  ];
}

function outcome(job: BodyJob): string {
  try {
    processBody(job);
    return 'stored';
  } catch (error) {
    if (error instanceof BodyRejectedError) return `refused: ${error.limit}`;
    throw error;
  }
}

/** Every input in place, then through the server with concurrent reads. */
export async function benchBodies(scale: number): Promise<BenchFigure[]> {
  const bodies = hostileBodies(scale);
  const figures: BenchFigure[] = [];
  for (const { name, job } of bodies) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = outcome(job);
    const used = process.cpuUsage(cpu);
    figures.push({ name: `body in place: ${name} (${result})`, wallMs: Math.round((performance.now() - started) * 10) / 10, cpuMs: Math.round((used.user + used.system) / 100) / 10, peakRssMb: Math.round(process.memoryUsage.rss() / 2 ** 20) });
  }

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-body-bench-'));
  const env = { PORT: '0', HOST: '127.0.0.1', PRESSROOM_DATA_DIR: path.join(dir, 'data'), PRESSROOM_OUTPUT_DIR: path.join(dir, 'dist'), PRESSROOM_IMPORT_CONTENT: 'false', PRESSROOM_LOG_LEVEL: 'silent', PRESSROOM_STATIC_BUILD: 'false' };
  const service = await startService(loadConfig(env, dir), { log: createLogger('silent'), startWorker: false });
  try {
    const { key } = await createApiKey({ db: service.db, clock: systemClock }, { accountName: 'bench', plan: 'free' });
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const post = (p: string, body: unknown) => fetch(`${service.url}${p}`, { method: 'POST', headers, body: JSON.stringify(body) });
    await (await post('/api/v1/channels', { slug: 'bench', default_language: 'en', translations: [{ language: 'en', title: 'Bench' }] })).text();
    // The body threads start with the service; the first save waits for them, which is not what is measured.
    await (await post('/api/v1/channels/bench/pages', { slug: 'warm', default_language: 'en', translations: [{ language: 'en', title: 'T', content_markdown: 'warm' }] })).text();
    for (const [i, { name, job }] of bodies.entries()) {
      const body = job.contentMarkdown !== undefined ? { content_markdown: job.contentMarkdown } : { content_html: job.contentHtml };
      let saving = true;
      const started = performance.now();
      const save = post('/api/v1/channels/bench/pages', { slug: `b${i}`, default_language: 'en', translations: [{ language: 'en', title: 'T', ...body }] }).then(async (r) => {
        await r.text();
        saving = false;
        return { status: r.status, ms: performance.now() - started };
      });
      let slowest = 0;
      while (saving) {
        const t0 = performance.now();
        await (await fetch(`${service.url}/api/v1/channels`, { headers })).text();
        slowest = Math.max(slowest, performance.now() - t0);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const saved = await save;
      figures.push({ name: `body save (${saved.status}) + concurrent GET, slowest: ${name}`, wallMs: Math.round(saved.ms * 10) / 10, cpuMs: 0, peakRssMb: Math.round(process.memoryUsage.rss() / 2 ** 20), p99Ms: Math.round(slowest * 100) / 100 });
    }
  } finally {
    await service.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--scale');
  const scale = at === -1 ? 100 : Number(process.argv[at + 1]);
  console.log(JSON.stringify(await benchBodies(scale / 100), null, 2));
}

/**
 * Benchmark of read your writes (issue 13, item 5): against a real server
 * with the static build and the job worker on, `--loops` times: publish an
 * article in en + fr, poll the publishing API until both translations read
 * `published`, then read at once what readers get (article JSON, Markdown,
 * HTML page, the channel's list JSON, channel page and feed, in both
 * languages); then withdraw it (PATCH …/status draft), whose answer already
 * reads `draft`, and read the same addresses at once: all 404 / not listed.
 *
 * Figures: the window from the write's answer to `published` reported
 * (moderation job + build), p50 and p95; the withdrawing write's answer time
 * (it waits for its build), p50 and p95; and the number of reads that
 * disagreed with the API, in the row's name (must be 0).
 *
 * Run directly: `npx tsx scripts/bench/read-your-writes-bench.ts --loops 200`.
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { systemClock } from '../../server/clock.ts';
import { loadConfig } from '../../server/config.ts';
import { createApiKey } from '../../server/domain/account/account.service.ts';
import { createLogger } from '../../server/logger.ts';
import { startService } from '../../server/main.ts';
import type { BenchFigure } from './run-measurement.ts';

const CHANNEL = 'ryw';
const LANGUAGES = ['en', 'fr'] as const;

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const round = (ms: number) => Math.round(ms * 10) / 10;

/** Runs the loops; returns the figures. */
export async function benchReadYourWrites(loops: number): Promise<BenchFigure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-ryw-bench-'));
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    PRESSROOM_DATA_DIR: path.join(dir, 'data'),
    PRESSROOM_OUTPUT_DIR: path.join(dir, 'dist'),
    PRESSROOM_IMPORT_CONTENT: 'false',
    PRESSROOM_LOG_LEVEL: 'silent',
    PRESSROOM_STATIC_BUILD: 'true',
    PRESSROOM_RATE_LIMIT_CONTENT: '0',
  };
  const service = await startService(loadConfig(env, dir), { log: createLogger('silent') });
  const toPublished: number[] = [];
  const withdrawAnswer: number[] = [];
  const failures: string[] = [];
  const cpu = process.cpuUsage();
  const started = performance.now();
  try {
    const { key } = await createApiKey({ db: service.db, clock: systemClock }, { accountName: 'bench', plan: 'pro' });
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const call = async (method: string, p: string, body?: unknown) => {
      const r = await fetch(`${service.url}${p}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      const text = await r.text();
      return { status: r.status, text, json: text.startsWith('{') ? JSON.parse(text) : null };
    };
    const ch = await call('POST', '/api/v1/channels', { slug: CHANNEL, default_language: 'en', translations: [{ language: 'en', title: 'Read' }, { language: 'fr', title: 'Lire' }] });
    if (ch.status !== 201) throw new Error(`channel: ${ch.status} ${ch.text}`);

    /** What readers get of one translation: [address, answered as the API says?]. */
    const check = async (slug: string, language: string, shown: boolean): Promise<string[]> => {
      const prefix = language === 'en' ? '' : `${language}/`;
      const get = (p: string) => fetch(`${service.url}${p}`).then(async (r) => ({ status: r.status, text: await r.text() }));
      const [json, md, html, list, channelPage, feed] = await Promise.all([
        get(`/api/public/v1/channels/${CHANNEL}/articles/${slug}?lang=${language}`),
        get(`/api/public/v1/channels/${CHANNEL}/articles/${slug}.md?lang=${language}`),
        get(`/${CHANNEL}/${language}/${slug}`),
        get(`/api/public/v1/channels/${CHANNEL}/articles?lang=${language}`),
        get(`/${CHANNEL}/${prefix}`),
        get(`/${CHANNEL}/${prefix}feed.json`),
      ]);
      const wrong: string[] = [];
      for (const [name, r] of [['json', json], ['md', md], ['html', html]] as const) if ((r.status === 200) !== shown) wrong.push(`${name} ${r.status}`);
      if (list.text.includes(`"${slug}"`) !== shown) wrong.push('list');
      if (channelPage.text.includes(`/${slug}"`) !== shown) wrong.push('channel page');
      if (feed.text.includes(`/${slug}"`) !== shown) wrong.push('feed');
      return wrong.map((w) => `${slug}/${language} ${shown ? 'published' : 'withdrawn'}: ${w}`);
    };

    for (let i = 0; i < loops; i++) {
      const slug = `loop-${i % 10}`;
      const written = await call('POST', `/api/v1/channels/${CHANNEL}/pages`, {
        slug,
        default_language: 'en',
        status: 'published',
        publish_translations: true,
        translations: LANGUAGES.map((language) => ({ language, title: `${language} ${i}`, content_markdown: `Text ${i}.` })),
      });
      if (written.status >= 300) throw new Error(`publish: ${written.status} ${written.text}`);
      const t0 = performance.now();
      for (let poll = 0; ; poll++) {
        const article = (await call('GET', `/api/v1/channels/${CHANNEL}/pages/${slug}`)).json;
        if (article.translations.every((t: { status: string }) => t.status === 'published')) break;
        if (poll > 10_000) throw new Error(`${slug} never read published`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      toPublished.push(performance.now() - t0);
      for (const language of LANGUAGES) failures.push(...(await check(slug, language, true)));

      const t1 = performance.now();
      const withdrawn = await call('PATCH', `/api/v1/channels/${CHANNEL}/pages/${slug}/status`, { status: 'draft', publish_translations: true });
      withdrawAnswer.push(performance.now() - t1);
      if (withdrawn.status !== 200) throw new Error(`withdraw: ${withdrawn.status} ${withdrawn.text}`);
      if (withdrawn.json.translations.some((t: { status: string }) => t.status === 'published')) failures.push(`${slug}: the withdrawing write answered published`);
      for (const language of LANGUAGES) failures.push(...(await check(slug, language, false)));
    }
  } finally {
    await service.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  for (const f of failures.slice(0, 20)) process.stderr.write(`read-your-writes: ${f}\n`);
  const used = process.cpuUsage(cpu);
  const rss = Math.round(process.memoryUsage.rss() / 2 ** 20);
  const figure = (name: string, wallMs: number): BenchFigure => ({ name: `read-your-writes: ${name} (${loops} loops)`, wallMs: round(wallMs), cpuMs: 0, peakRssMb: rss });
  return [
    figure('write → published reported p50', percentile(toPublished, 50)),
    figure('write → published reported p95', percentile(toPublished, 95)),
    figure('withdraw answered (after its build) p50', percentile(withdrawAnswer, 50)),
    figure('withdraw answered (after its build) p95', percentile(withdrawAnswer, 95)),
    { ...figure(`${failures.length} reads disagreed with the API, all loops`, performance.now() - started), cpuMs: Math.round((used.user + used.system) / 1000), failures: failures.length },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--loops');
  const loops = at === -1 ? 200 : Number(process.argv[at + 1]);
  console.log(JSON.stringify(await benchReadYourWrites(loops), null, 2));
}

/**
 * Migration benchmark (issue 36): how long an upgrade from a database at
 * migration 0012 takes, the step that holds 0013's rebuild of the article
 * tables (heads before bodies).
 *
 * A database is made in a temp folder and migrated to `0012-link-targets`
 * only (Kysely's `migrateTo`), then filled straight through SQL inserts
 * (seconds, not the save path's minutes): one account, 20 channels, N
 * articles, each in L languages (`corpusLanguages`), each translation with
 * one revision that is its current and published one. Rows have realistic
 * sizes: the Markdown is the corpus's ~1,200-word body (`corpusBody`), the
 * HTML and text are derived from it (block for block, not the renderer's
 * output, but of its size), on the translation and on the revision alike.
 *
 * The database is closed and migrated to the latest version by a child
 * process of its own (`--measure FILE`), so its peak RSS is the migration's,
 * not the fill's: wall time, CPU time and `maxRSS` of that process, and the
 * rows rebuilt per second (every translation and revision). Two more rows
 * come from 0013's progress reports: its switch, the one transaction that
 * holds the write lock longer than a batch (the one stop of a rebuild that
 * runs beside a serving process, `server/store/table-rebuild.ts`), and the
 * time its old tables then took to be freed in batches and dropped.
 *
 * Prints a JSON array of figures. Run by `npm run bench -- --only migrate`;
 * alone: `tsx scripts/bench/migrate-bench.ts --articles N --languages L`.
 * @module
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Migrator } from 'kysely';
import { openDatabase, sqliteConnection, type Db } from '../../server/store/database.ts';
import { migrations, reportingMigrations } from '../../server/store/migrations/index.ts';
import { describeProgress, everyFewSeconds } from '../../server/store/table-rebuild.ts';
import { parseScriptArgs } from '../lib/cli.ts';
import { CORPUS_CHANNELS, corpusBody, corpusLanguages } from './corpus.ts';
import type { BenchFigure } from './run-measurement.ts';

/** The migration the database is left at before the measured run. */
const BEFORE = '0012-link-targets';
/** Articles inserted per transaction by the fill. */
const FILL_BATCH = 500;
const NOW = '2026-12-06T00:00:00.000Z';

/** What the measuring child prints. */
interface Measured {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakRssMb: number;
  readonly applied: readonly string[];
  /** 0013's final transaction (rename, check), from its reports. */
  readonly switchMs: number | null;
  /** From 0013's switch to its end: the old tables emptied in batches and dropped. */
  readonly retireMs: number | null;
}

/** HTML of the size the renderer makes: a block element per Markdown block. */
function htmlOf(markdown: string): string {
  return markdown
    .split('\n\n')
    .map((block) => {
      if (block.startsWith('## ')) return `<h2 id="${block.slice(3, 40).replace(/\W+/g, '-')}">${block.slice(3)}</h2>`;
      if (block.startsWith('- ')) return `<ul>\n${block.split('\n').map((line) => `<li>${line.slice(2)}</li>`).join('\n')}\n</ul>`;
      if (block.startsWith('```')) return `<pre><code class="language-ts">${block.replace(/```\w*\n?/g, '')}</code></pre>`;
      return `<p>${block}</p>`;
    })
    .join('\n');
}

/** Plain text of the body, as search and excerpts read it. */
function textOf(markdown: string): string {
  return markdown.replace(/^(## |- )/gm, '').replace(/```\w*\n?/g, '').replace(/\n{2,}/g, '\n');
}

/** Migrates a new database at `file` to {@link BEFORE} and fills it. */
export async function fill(file: string, articles: number, languages: readonly string[]): Promise<void> {
  const db = openDatabase(file);
  try {
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(BEFORE);
    if (error) throw error;
    insertRows(db, articles, languages);
  } finally {
    await db.destroy();
  }
}

function insertRows(db: Db, articles: number, languages: readonly string[]): void {
  const sqlite = sqliteConnection(db);
  sqlite.prepare(`INSERT INTO accounts (id, name, plan, created_at) VALUES (1, 'bench', 'pro', ?)`).run(NOW);
  const channel = sqlite.prepare(`INSERT INTO channels (id, slug, owner_account_id, default_language, status, created_at, updated_at) VALUES (?, ?, 1, 'en', 'active', ?, ?)`);
  for (let c = 1; c <= CORPUS_CHANNELS; c++) channel.run(c, `channel-${c - 1}`, NOW, NOW);
  const article = sqlite.prepare(`INSERT INTO articles (id, channel_id, slug, default_language, status, created_at, updated_at) VALUES (?, ?, ?, 'en', 'published', ?, ?)`);
  // Columns in 0012's order; 0013 reorders them.
  const translation = sqlite.prepare(`INSERT INTO article_translations (id, article_id, language, status, title, excerpt, content_markdown, seo_title, seo_description, published_at, scheduled_at, current_revision_id, published_revision_id, created_at, updated_at, content_html, content_text, body_version, link_targets)
    VALUES (?, ?, ?, 'published', ?, ?, ?, NULL, NULL, ?, NULL, ?, ?, ?, ?, ?, ?, 'bench-1', '[]')`);
  const revision = sqlite.prepare(`INSERT INTO revisions (id, translation_id, number, title, excerpt, content_markdown, seo_title, seo_description, content_hash, moderation_state, moderation_reason, created_at, decided_at, content_html, content_text, body_version, link_targets, image_html)
    VALUES (?, ?, 1, ?, ?, ?, NULL, NULL, ?, 'passed', NULL, ?, ?, ?, ?, 'bench-1', '[]', '')`);
  const batch = sqlite.transaction((from: number, to: number) => {
    for (let n = from; n < to; n++) {
      article.run(n + 1, (n % CORPUS_CHANNELS) + 1, `a-${n}`, NOW, NOW);
      languages.forEach((language, l) => {
        const id = n * languages.length + l + 1;
        const markdown = corpusBody(n, language);
        const html = htmlOf(markdown);
        const text = textOf(markdown);
        const title = `Article ${n} in ${language}`;
        const excerpt = `Summary of article ${n}.`;
        translation.run(id, n + 1, language, title, excerpt, markdown, NOW, id, id, NOW, NOW, html, text);
        revision.run(id, id, title, excerpt, markdown, `hash-${id}`, NOW, NOW, html, text);
      });
    }
  });
  for (let from = 0; from < articles; from += FILL_BATCH) batch(from, Math.min(articles, from + FILL_BATCH));
}

/**
 * The measured run (in the child): migrates `file` to the latest version, as
 * `migrateToLatest` does, printing its progress lines every few seconds, and
 * keeps 0013's switch time (which `migrateToLatest` passes on only for a long
 * rebuild).
 */
async function measure(file: string): Promise<Measured> {
  const db = openDatabase(file);
  try {
    let switchMs: number | null = null;
    let switchedAt: number | null = null;
    let retireMs: number | null = null;
    const say = everyFewSeconds((p) => process.stderr.write(`bench migrate: ${describeProgress(p)}\n`));
    const provided = reportingMigrations((p) => {
      if (p.phase === 'switched') switchedAt = p.elapsedMs;
      if (p.phase === 'done') {
        switchMs = p.switchMs ?? null;
        retireMs = switchedAt === null ? null : p.elapsedMs - switchedAt;
      }
      say(p);
    });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => provided } });
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const { error, results } = await migrator.migrateToLatest();
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    if (error) throw error;
    const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, peakRssMb: process.resourceUsage().maxRSS / 1024, applied, switchMs, retireMs };
  } finally {
    await db.destroy();
  }
}

/** Runs {@link measure} in a process of its own and returns what it printed. */
function measureInChild(file: string): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--measure', file], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => (code === 0 ? resolve(JSON.parse(out) as Measured) : reject(new Error(`the migrating process exited with ${signal ?? `code ${code}`}`))));
  });
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Fills a database of `articles` × `languages`, migrates it in a child process, and returns the figures. */
export async function benchMigration(articles: number, languageCount: number): Promise<BenchFigure[]> {
  const languages = corpusLanguages(languageCount);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-migrate-bench-'));
  try {
    const file = path.join(dir, 'pressroom.db');
    const filling = performance.now();
    await fill(file, articles, languages);
    const sizeMb = fs.statSync(file).size / 2 ** 20;
    process.stderr.write(`bench migrate: ${articles} × ${languages.length} at ${BEFORE} in ${((performance.now() - filling) / 1000).toFixed(1)} s (${sizeMb.toFixed(0)} MB)\n`);
    const measured = await measureInChild(file);
    if (!measured.applied.includes('0013-heads-before-bodies')) throw new Error(`0013 was not applied: ${measured.applied.join(', ')}`);
    // Every translation and every revision is rebuilt.
    const rows = 2 * articles * languages.length;
    return [
      {
        name: `migrate 0012 → latest: ${articles} articles × ${languages.length}`,
        wallMs: round(measured.wallMs),
        cpuMs: round(measured.cpuMs),
        peakRssMb: round(measured.peakRssMb),
        rows,
        rowsPerSec: Math.round(rows / (measured.wallMs / 1000)),
        databaseMb: Math.round(sizeMb),
      },
      // The only stop a rebuild beside a serving process makes: every writer waits for this transaction.
      ...(measured.switchMs === null ? [] : [{ name: `migrate 0013's switch, one transaction (${articles}×${languages.length})`, wallMs: round(measured.switchMs), cpuMs: Number.NaN, peakRssMb: Number.NaN }]),
      // Then the old tables are freed a batch at a time (writers wait at most for one batch).
      ...(measured.retireMs === null ? [] : [{ name: `migrate 0013's old tables freed in batches (${articles}×${languages.length})`, wallMs: round(measured.retireMs), cpuMs: Number.NaN, peakRssMb: Number.NaN }]),
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseScriptArgs(
    'tsx scripts/bench/migrate-bench.ts',
    {
      usage: '[--articles N] [--languages L]',
      options: {
        articles: { kind: 'value', placeholder: 'N', description: 'Articles (default 1000).' },
        languages: { kind: 'value', placeholder: 'L', description: 'Translations per article (default 2).' },
        measure: { kind: 'value', placeholder: 'FILE', description: 'Internal: migrate FILE and print what it took.' },
      },
      positionals: [],
    },
    process.argv.slice(2),
  );
  if (values.measure) console.log(JSON.stringify(await measure(values.measure)));
  else console.log(JSON.stringify(await benchMigration(Number(values.articles ?? 1000), Number(values.languages ?? 2)), null, 2));
}

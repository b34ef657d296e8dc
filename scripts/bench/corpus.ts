/**
 * A deterministic synthetic corpus for the benchmarks: N articles over 20
 * channels, each in L languages (the second is Arabic, right to left), with
 * ~1,200-word Markdown bodies (`##` headings, lists, links to sibling
 * articles, a URL, a code block).
 *
 * Most articles are written through the real save path in the store
 * (`saveArticle`, as the content/ importer does), published without
 * moderation: their bodies are prepared and rendered on the body pool's
 * threads (`prepareContents`, as the API does), one batch ahead, while this
 * thread saves the batch before in one transaction. The last ~1 % (at least
 * 20) go through the publishing API over real HTTP, each with an uploaded
 * image (`corpus-api.ts`). Run on its own:
 * `tsx scripts/bench/corpus.ts --data DIR [--output DIR] --articles N --languages L [--channels C]`
 * (`--output` defaults to `dist` beside the data folder; uploaded images are
 * stored there, as in the service). A finished corpus says what it holds in
 * `{data}/corpus.json`; the build benchmark's `--corpus` runs on a copy of one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createBodyPool } from '../../server/bodies/body-pool.ts';
import { systemClock } from '../../server/clock.ts';
import { channelAccess } from '../../server/domain/account/access.ts';
import { ensureAccount } from '../../server/domain/account/account.service.ts';
import { saveArticle } from '../../server/domain/article/article-save.ts';
import { contentRequests, prepareContents, type PreparedContents } from '../../server/domain/article/article-bodies.ts';
import type { ArticleWriteInput } from '../../server/domain/article/article.schema.ts';
import { insertChannelFor } from '../../server/domain/channel/channel.service.ts';
import { migrateToLatest, openDatabase, type Db } from '../../server/store/database.ts';
import { parseScriptArgs, wantsHelp } from '../lib/cli.ts';

/** The file in a corpus's data folder that says what it holds (`CorpusShape`). */
export const CORPUS_FILE = 'corpus.json';

/** What a written corpus holds. */
export interface CorpusShape {
  readonly articles: number;
  readonly languages: number;
  readonly channels: number;
}

/** Articles saved per transaction (and prepared ahead on the body threads). */
const CORPUS_BATCH = 100;

/** Number of channels the articles are spread over (the build benchmark's `--channels` changes it). */
/** The command-line options of a benchmark that reads or writes the corpus (`parseScriptArgs` options). */
export const CORPUS_OPTIONS = {
  articles: { kind: 'value', placeholder: 'N', description: 'Corpus size.' },
  languages: { kind: 'value', placeholder: 'L', description: 'Languages (at least 2: the second is Arabic).' },
  corpus: { kind: 'value', placeholder: 'DIR', description: 'Copy this kept corpus (DIR/data) instead of writing one.' },
} as const;

export const CORPUS_CHANNELS = 20;
const LANGUAGES = ['en', 'ar', 'fr', 'de', 'es', 'pt', 'it', 'nl'];
/** The English vocabulary of the bodies (the HTTP benchmark searches for some of these words). */
export const CORPUS_WORDS = 'pressroom static output readers crawlers agents publish channel article translation feed search index build cache render markdown language page archive moderation schedule revision'.split(' ');
const ARABIC = 'النشر القراء المقالة القناة الترجمة البحث الموقع الصفحة اللغة المحتوى'.split(' ');

/** The corpus's languages for `languages` (1–8): English first, then Arabic. */
export function corpusLanguages(languages: number): string[] {
  return LANGUAGES.slice(0, Math.max(1, Math.min(languages, LANGUAGES.length)));
}

/** A deterministic pseudo-random sequence (mulberry32), so every run writes the same corpus. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A ~1,200-word body in `language`, linking to siblings of article `n`. */
export function corpusBody(n: number, language: string): string {
  const next = random(n * 31 + language.length);
  const vocabulary = language === 'ar' ? ARABIC : CORPUS_WORDS;
  const sentence = (words: number) => Array.from({ length: words }, () => vocabulary[Math.floor(next() * vocabulary.length)]).join(' ') + '.';
  const parts: string[] = [];
  for (let section = 1; section <= 6; section++) {
    parts.push(`## ${sentence(4).slice(0, -1)} ${section}`);
    for (let p = 0; p < 3; p++) parts.push(Array.from({ length: 6 }, () => sentence(10)).join(' '));
    if (section === 2) parts.push(['- ' + sentence(6), '- ' + sentence(6), '- ' + sentence(6)].join('\n'));
    if (section === 3) parts.push(`See [the previous article](./a-${Math.max(0, n - 1)}) and https://example.org/docs/${n}.`);
    if (section === 4) parts.push('```ts\nconst answer: number = 42;\nconsole.log(answer);\n```');
  }
  return `${parts.join('\n\n')}\n`;
}

/**
 * Writes the corpus's account and channels, and articles 0 … `articles - 1`,
 * into `db` through the store's save path.
 * @returns how many articles were written.
 */
export async function writeCorpus(db: Db, articles: number, languages: number, channels = CORPUS_CHANNELS): Promise<number> {
  const clock = systemClock;
  const account = (await ensureAccount(db, clock, 'bench', 'pro')).account;
  const principal = { accountId: account.id, accountName: account.name, plan: 'pro' as const, keyId: 0 };
  const langs = corpusLanguages(languages);
  await db.transaction().execute(async (trx) => {
    for (let c = 0; c < channels; c++) {
      await insertChannelFor(trx, clock, principal, {
        slug: `channel-${c}`,
        default_language: 'en',
        translations: langs.map((language) => ({ language, title: `Channel ${c} (${language})` })),
      });
    }
  });
  const input = (n: number): ArticleWriteInput => ({
    slug: `a-${n}`,
    default_language: 'en',
    status: 'published',
    translations: langs.map((language) => ({ language, title: `Article ${n} in ${language}`, excerpt: `Summary of article ${n}.`, content_markdown: corpusBody(n, language) })),
  });
  // Rendering the bodies is most of a save: the pool's threads render the next batch while this one is saved.
  const pool = createBodyPool({ threads: Math.max(1, os.cpus().length), timeLimitMs: 60_000 });
  const prepare = (from: number): Promise<Array<{ n: number; input: ArticleWriteInput; prepared: PreparedContents }>> =>
    Promise.all(
      Array.from({ length: Math.max(0, Math.min(CORPUS_BATCH, articles - from)) }, async (_, i) => {
        const item = input(from + i);
        return { n: from + i, input: item, prepared: await prepareContents(pool, contentRequests(item)) };
      }),
    );
  try {
    let next = prepare(0);
    for (let from = 0; from < articles; from += CORPUS_BATCH) {
      const batch = await next;
      next = prepare(from + CORPUS_BATCH);
      // Progress every 10 %, so a long run shows it is alive.
      const step = Math.max(CORPUS_BATCH, Math.ceil(articles / 10 / CORPUS_BATCH) * CORPUS_BATCH);
      if (from > 0 && from % step === 0) process.stderr.write(`corpus: ${from}/${articles} articles through the store…\n`);
      await db.transaction().execute(async (trx) => {
        for (const { n, input: item, prepared } of batch) {
          const access = await channelAccess(trx, principal, `channel-${n % channels}`);
          await saveArticle(trx, { clock }, access, item, { mode: 'trusted', prepared });
        }
      });
    }
    await next;
  } finally {
    await pool.close();
  }
  return articles;
}

const USAGE = '--data DIR [--output DIR] [--articles N] [--languages L] [--channels C]';
const HELP = `Usage: tsx scripts/bench/corpus.ts ${USAGE}

Writes the benchmark corpus into a data folder of its own (a new SQLite file,
its uploaded images), to keep and give to a benchmark's --corpus: writing
100,000 articles took about 30 minutes on two cores.

  --data DIR        the data folder to write (required; never the service's own)
  --output DIR      the output folder of the few articles published through the
                    API (default: dist beside the data folder)
  --articles N      articles (default 100)
  --languages L     languages, 1 to 8, English then Arabic (default 2)
  --channels C      channels the articles are spread over (default ${CORPUS_CHANNELS})
`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (wantsHelp(process.argv.slice(2))) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const { values } = parseScriptArgs(
    'tsx scripts/bench/corpus.ts',
    {
      usage: USAGE,
      options: {
        // Required: a default would write the corpus into whatever data folder is beside the caller, the service's own.
        data: { kind: 'value', placeholder: 'DIR', description: 'The data folder to write.', required: true },
        output: { kind: 'value', placeholder: 'DIR', description: 'The output folder.' },
        articles: CORPUS_OPTIONS.articles,
        languages: CORPUS_OPTIONS.languages,
        channels: { kind: 'value', placeholder: 'C', description: 'Channels.' },
      },
      positionals: [],
    },
    process.argv.slice(2),
  );
  const dataDir = path.resolve(values.data!);
  const outputDir = path.resolve(values.output ?? path.join(path.dirname(dataDir), 'dist'));
  const articles = Number(values.articles ?? '100');
  const languages = Number(values.languages ?? '2');
  const channels = Number(values.channels ?? String(CORPUS_CHANNELS));
  // Imported here: the API part starts the whole service, which the store part does not need.
  const { apiSampleSize, publishThroughApi } = await import('./corpus-api.ts');
  const throughStore = articles - apiSampleSize(articles);
  const db = openDatabase(path.join(dataDir, 'pressroom.db'));
  await migrateToLatest(db);
  const started = performance.now();
  await writeCorpus(db, throughStore, languages, channels);
  await db.destroy();
  const stored = performance.now();
  process.stderr.write(`corpus: ${throughStore} articles through the store in ${Math.round(stored - started)} ms; ${articles - throughStore} through the publishing API…\n`);
  const api = await publishThroughApi({ dataDir, outputDir, from: throughStore, to: articles, languages: corpusLanguages(languages), channels, body: corpusBody });
  process.stderr.write(`corpus: ${api.articles} articles and ${api.images} images through the publishing API in ${Math.round(performance.now() - stored)} ms\n`);
  // What this corpus is, so the build benchmark can run on a kept copy (`--corpus`) and check it is the one asked for.
  fs.writeFileSync(path.join(dataDir, CORPUS_FILE), `${JSON.stringify({ articles, languages, channels } satisfies CorpusShape)}\n`);
}

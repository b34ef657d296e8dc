/**
 * Dashboard benchmark (issue 37): what an editor waits for in the dashboard,
 * over real HTTP on loopback, against the bundled server (`scripts/start.ts`,
 * the static build on) on the generated corpus (written, or copied from
 * `--corpus DIR`), built beforehand with its search index. The corpus's
 * account (`bench`, which owns every channel) gets a password with
 * `setPassword` and signs in through the form, as a browser does.
 *
 * Rows, each timed from the request to the answer's last byte, p50 and p95
 * over `REQUESTS` requests after `WARMUPS` unmeasured ones (fewer when a row
 * passes `ROW_BUDGET_MS`; the count is in the figure as `requests`), on the
 * largest channel (`channel-0`):
 *
 * - **articles, first page / ?state=published / ?q= (a few) / ?q= (none)**:
 *   the channel's article list; the search runs over every translation of
 *   the channel, so it is the one that grows with the channel;
 * - **editor page**: GET of a published article's primary translation
 *   (a ~1,200-word body); once, the **first** editor page, which bundles the
 *   CodeMirror script with esbuild on first use, and the bundle's first
 *   request, with its size (raw and gzip);
 * - **save**: POST of the editor form on a draft (it stays a draft: no
 *   moderation, no build), each save against the version the last returned;
 * - **autosave**: POST …/autosave of the same draft (JSON answer);
 * - **preview of a draft**: `…/pages/{id}/preview` of a new draft in two
 *   languages, which runs the builder's plans for the channel and renders
 *   every file a publish would change;
 * - **preview of a revision**: the same of a published article whose saved
 *   revision waits for a person (the server runs with the rules of
 *   `docs/moderation.example.json`, and the revision's title has its review
 *   term, so moderation sends it to manual review and it stays waiting).
 *
 * The rows start once the server is quiet (its background work after the
 * start, and the revision's moderation, done). CPU ms of a row is the server process tree's CPU per request (mean over
 * the measured requests); peak RSS is the server tree's during the row.
 * Prints a JSON array of figures. Run by `npm run bench -- --only dashboard`;
 * alone: `tsx scripts/bench/dashboard-bench.ts --articles N --languages L [--corpus DIR]`.
 * @module
 */
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { setPassword } from '../../server/domain/account/session.service.ts';
import { systemClock } from '../../server/clock.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';
import { parseScriptArgs } from '../lib/cli.ts';
import { CORPUS_CHANNELS, CORPUS_OPTIONS, corpusBody, corpusLanguages } from './corpus.ts';
import { SESSION_COOKIE } from '../../server/http/dashboard/dashboard-session.ts';
import { startBundledServer, type Target } from './http-targets.ts';
import { buildCorpusSite } from './corpus-site.ts';
import { createLoadHarness } from './load-harness.ts';
import { sampleTree, treeUsage } from './process-tree.ts';
import type { BenchFigure } from './run-measurement.ts';

/** Measured requests per row, after the unmeasured warm-ups. */
const REQUESTS = 30;
const WARMUPS = 3;
/** A row stops early (with at least `MIN_REQUESTS`) once its measured requests took this long. */
const ROW_BUDGET_MS = 60_000;
const MIN_REQUESTS = 5;
/** The account that owns the corpus's channels (corpus.ts) and the password it is given here. */
const ACCOUNT = 'bench';
const PASSWORD = 'dashboard bench password';
/** The largest channel: articles are dealt out over the channels in turn, so channel-0 has the most (or as many). */
const CHANNEL = 'channel-0';

const { values } = parseScriptArgs(
  'tsx scripts/bench/dashboard-bench.ts',
  {
    usage: '--articles N --languages L [--corpus DIR]',
    options: {
      ...CORPUS_OPTIONS,
    },
    positionals: [],
  },
  process.argv.slice(2),
);
const articles = Number(values.articles ?? 1000);
const languages = Math.max(2, Number(values.languages ?? 2));
const keptCorpus = values.corpus ? values.corpus : '';
const corpus = `${articles}×${languages}`;
const langs = corpusLanguages(languages);
const progress = (message: string) => process.stderr.write(`dashboard bench: ${message}\n`);

// The harness gives the temp folder, the server's stop and Ctrl-C handling; its wrk rows are not used.
const harness = createLoadHarness({ bench: 'dashboard', corpus, duration: 1, warmup: 0, connections: 1 });
const { dir, dataDir, outputDir, targets, cleanup } = harness;

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const round = (ms: number) => Math.round(ms * 10) / 10;

/** The corpus, built with its search index as `npm run build` builds it, and the account's password. */
async function buildSite(): Promise<void> {
  const site = { dir, dataDir, outputDir, kept: keptCorpus || null, shape: { articles, languages }, progress };
  await buildCorpusSite(site, (db) => setPassword({ db, clock: systemClock }, ACCOUNT, PASSWORD));
}

interface Answer {
  status: number;
  location: string | null;
  text: string;
}

/** Signs in through the form (expecting its 303) and returns a sender bound to the session. */
async function signIn(base: string): Promise<(method: 'GET' | 'POST', path: string, form?: Record<string, string>) => Promise<Answer>> {
  const login = await fetch(`${base}/dashboard/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ account: ACCOUNT, password: PASSWORD }).toString(),
  });
  await login.body?.cancel();
  const token = new RegExp(`${SESSION_COOKIE}=([^;]+)`).exec(login.headers.getSetCookie().join('\n'))?.[1];
  if (login.status !== 303 || !token) throw new Error(`sign-in answered ${login.status}, not 303 with a session cookie`);
  const cookie = `${SESSION_COOKIE}=${token}`;
  return async (method, path, form) => {
    const res = await fetch(`${base}${path}`, {
      method,
      redirect: 'manual',
      headers: { cookie, ...(method === 'POST' ? { origin: base, 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  };
}

/** Throws unless `answer` has `status`. */
function expectStatus(what: string, answer: Answer, status = 200): Answer {
  if (answer.status !== status) throw new Error(`${what}: answered ${answer.status}, not ${status}: ${answer.text.slice(0, 300)}`);
  return answer;
}

/** The version in an editor page's form. */
function versionIn(page: string): string {
  const version = /name="version" value="([^"]*)"/.exec(page)?.[1];
  if (version === undefined) throw new Error('the editor page has no version field');
  return version;
}

/**
 * Times `request` (its index as argument): `WARMUPS` unmeasured, then `REQUESTS` measured (fewer past the budget);
 * returns the p50 and p95 figures, with the server tree's CPU per request and peak RSS.
 */
async function row(server: Target, label: string, request: (i: number) => Promise<void>): Promise<BenchFigure[]> {
  progress(`${label}…`);
  for (let i = 0; i < WARMUPS; i++) await request(i);
  const samples: number[] = [];
  const before = treeUsage(server.pid);
  const sampler = sampleTree(server.pid);
  const started = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    await request(WARMUPS + i);
    samples.push(performance.now() - t0);
    if (samples.length >= MIN_REQUESTS && performance.now() - started > ROW_BUDGET_MS) break;
  }
  sampler.stop();
  const after = treeUsage(server.pid);
  const cpuMs = before && after ? round((after.cpuMs - before.cpuMs) / samples.length) : Number.NaN;
  const peakRssMb = sampler.peakRssBytes() / 2 ** 20;
  return (['p50', 'p95'] as const).map((p) => ({
    name: `dashboard ${label} ${p} (${corpus})`,
    wallMs: round(percentile(samples, p === 'p50' ? 50 : 95)),
    cpuMs,
    peakRssMb,
    requests: samples.length,
  }));
}

/**
 * Waits until the server's process tree uses less than a tenth of a core for two seconds in a row (at most 5 minutes):
 * after its start it checks the output folder and loads the public state in the background, and a save's moderation
 * runs after its answer; the rows measure the dashboard, not those.
 */
async function quiet(server: Target, why: string): Promise<void> {
  const started = performance.now();
  let calm = 0;
  let last = treeUsage(server.pid);
  while (last && calm < 2 && performance.now() - started < 300_000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = treeUsage(server.pid);
    if (!now) return;
    calm = now.cpuMs - last.cpuMs < 100 ? calm + 1 : 0;
    last = now;
  }
  progress(`${why}: the server was busy for ${((performance.now() - started) / 1000).toFixed(1)} s before it went quiet`);
}

try {
  await buildSite();
  progress('starting the server (static build on)…');
  const server = await startBundledServer({
    root: PROJECT_ROOT,
    dataDir,
    outputDir,
    tmpDir: os.tmpdir(),
    readyPath: '/dashboard/login',
    timeoutMs: 600_000,
    // The example rules, whose review term ("lawsuit") keeps a revision waiting for a person.
    env: { PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_MODERATION_FILE: path.join(PROJECT_ROOT, 'docs/moderation.example.json') },
  });
  targets.push(server);
  await quiet(server, 'start');
  const send = await signIn(server.base);
  const get = async (path: string) => expectStatus(`GET ${path}`, await send('GET', path));
  const list = `/dashboard/channels/${CHANNEL}`;
  const channelArticles = Math.ceil(articles / CORPUS_CHANNELS);
  const rowsIn = (page: string) => (page.match(/<tr><td><a href=/g) ?? []).length;
  const figures: BenchFigure[] = [];

  // A published article of the channel (a-0, the corpus's first) and its id, from the list's search.
  const found = await get(`${list}?q=a-0`);
  const publishedId = new RegExp(`/dashboard/channels/${CHANNEL}/pages/(\\d+)"`).exec(found.text)?.[1];
  if (!publishedId) throw new Error(`${list}?q=a-0 lists no article`);
  const published = `${list}/pages/${publishedId}`;

  // The first editor page bundles the CodeMirror script (esbuild, on first use): timed once, then the bundle's first request.
  const editorOfPublished = `${published}/translations/en`;
  progress('first editor page (bundles the source editor)…');
  let t0 = performance.now();
  const firstEditor = await get(editorOfPublished);
  const firstEditorMs = performance.now() - t0;
  const bundleHref = /<script[^>]* src="(\/dashboard\/assets\/source-editor-[0-9a-f]{12}\.js)"/.exec(firstEditor.text)?.[1];
  if (!bundleHref) throw new Error('the editor page names no source editor script');
  t0 = performance.now();
  const bundle = await fetch(`${server.base}${bundleHref}`);
  const bundleBytes = Buffer.from(await bundle.arrayBuffer());
  const bundleMs = performance.now() - t0;
  if (bundle.status !== 200) throw new Error(`${bundleHref} answered ${bundle.status}`);
  const gzipBytes = gzipSync(bundleBytes).length;

  // The primary translation gets a revision that waits for a person (a review term in the title): saved now,
  // so that moderation has decided by the time its preview is measured.
  const revised = await send('POST', editorOfPublished, {
    version: versionIn(firstEditor.text),
    title: 'Article 0 in en: the lawsuit, revised',
    excerpt: 'Summary of article 0, revised.',
    content_markdown: `${corpusBody(0, 'en')}\nA revised closing paragraph.\n`,
    seo_title: '',
    seo_description: '',
  });
  expectStatus('the revision of a-0', revised);
  if (!revised.text.includes('Saved as a revision')) throw new Error('the save of a-0 made no revision waiting for moderation');
  await quiet(server, 'the revision\'s moderation');
  const kb = (n: number) => Math.round(n / 1024);

  figures.push(...(await row(server, `articles, first page (${CHANNEL}: ${channelArticles} article${channelArticles === 1 ? '' : 's'})`, async () => void (await get(list)))));
  figures.push(...(await row(server, 'articles ?state=published', async () => void (await get(`${list}?state=published`)))));
  // "a-1" matches the slugs a-1…: a few in channel-0 (a-100, a-120, … and a-1000… at larger sizes); titles never have it.
  const few = rowsIn((await get(`${list}?q=a-1`)).text);
  figures.push(...(await row(server, `articles ?q= matching ${few}`, async () => void (await get(`${list}?q=a-1`)))));
  const none = rowsIn((await get(`${list}?q=no-such-words`)).text);
  if (none !== 0) throw new Error(`?q=no-such-words listed ${none} articles`);
  figures.push(...(await row(server, 'articles ?q= matching none', async () => void (await get(`${list}?q=no-such-words`)))));

  figures.push(...(await row(server, 'editor page (a published article, en)', async () => void (await get(editorOfPublished)))));
  const firstRow = figures.find((f) => f.name.startsWith('dashboard editor page') && f.name.includes(' p50 '))!;
  figures.push({
    name: `dashboard editor page, first request: bundles the source editor (esbuild) (${corpus})`,
    wallMs: round(firstEditorMs),
    cpuMs: 0,
    peakRssMb: 0,
    buildMs: round(firstEditorMs - firstRow.wallMs),
  });
  figures.push({
    name: `dashboard source editor bundle, first request: ${kb(bundleBytes.length)} KB, ${kb(gzipBytes)} KB gzip (${corpus})`,
    wallMs: round(bundleMs),
    cpuMs: 0,
    peakRssMb: 0,
    bytes: bundleBytes.length,
    gzipBytes,
  });

  // A new draft in the largest channel, through "New article", then its other languages through the editor.
  const created = await send('POST', `${list}/pages`, { title: 'Dashboard bench draft', slug: 'dashboard-bench-draft', language: 'en', content_markdown: corpusBody(articles + 1, 'en') });
  expectStatus('New article', created, 303);
  const draftId = /\/pages\/(\d+)/.exec(created.location ?? '')?.[1];
  if (!draftId) throw new Error(`New article redirected to ${created.location}`);
  const draft = `${list}/pages/${draftId}`;
  for (const language of langs.slice(1)) {
    const added = await send('POST', `${draft}/translations/${language}`, { version: '', title: `Dashboard bench draft (${language})`, excerpt: '', content_markdown: corpusBody(articles + 1, language), seo_title: '', seo_description: '' });
    expectStatus(`the draft's ${language} translation`, added);
  }

  const editorOfDraft = `${draft}/translations/en`;
  let version = versionIn((await get(editorOfDraft)).text);
  const texts = (i: number) => ({ title: `Dashboard bench draft, save ${i}`, excerpt: '', content_markdown: `${corpusBody(articles + 1, 'en')}\nSave ${i}.\n`, seo_title: '', seo_description: '' });
  figures.push(
    ...(await row(server, 'save (editor form, a draft)', async (i) => {
      const saved = expectStatus('save', await send('POST', editorOfDraft, { version, ...texts(i) }));
      version = versionIn(saved.text);
    })),
  );
  figures.push(
    ...(await row(server, 'autosave (a draft)', async (i) => {
      const saved = expectStatus('autosave', await send('POST', `${editorOfDraft}/autosave`, { version, ...texts(1000 + i) }));
      const answer = JSON.parse(saved.text) as { saved: string; version?: string };
      if (answer.saved !== 'draft' || !answer.version) throw new Error(`autosave of a draft answered ${saved.text}`);
      version = answer.version;
    })),
  );

  // The files a preview lists as written, changed or deleted: one table row each.
  const changedFiles = (page: string) => (page.match(/<tr><td><code>/g) ?? []).length;
  const draftFiles = changedFiles((await get(`${draft}/preview`)).text);
  figures.push(...(await row(server, `preview of a draft (${CHANNEL}, ${langs.length} languages: ${draftFiles} files change)`, async () => void (await get(`${draft}/preview`)))));
  const revisionPreview = await get(`${published}/preview`);
  if (!revisionPreview.text.includes('Texts not yet public: en')) throw new Error(`the preview of a-0 shows no waiting revision: ${revisionPreview.text.slice(0, 300)}`);
  const revisionFiles = changedFiles(revisionPreview.text);
  figures.push(...(await row(server, `preview of a published article with a waiting revision (${revisionFiles} files change)`, async () => void (await get(`${published}/preview`)))));
  process.stdout.write(`${JSON.stringify(figures)}\n`);
} finally {
  await cleanup();
}

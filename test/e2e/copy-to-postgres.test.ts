/**
 * The way from the SQLite file to Postgres (issue 38): `npm run migrate --
 * --copy-to URL` copies a site's every row; a server started on the copy
 * answers the publishing API as the SQLite one did (the same keys, ids,
 * statuses, texts), numbers new rows past the copied ones, and indexes the
 * read API's search again. Jobs still to run move into the Postgres queue
 * (graphile-worker's) with their time, attempts and errors: a scheduled
 * article is published there when its time comes. A target that holds data
 * is refused, and so is a copy asked of a server already on Postgres.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedPostgres } from '../helpers/postgres-cluster.ts';
import { runCommand } from '../helpers/service-process.ts';
import { insertJob, listJobs } from '../../server/store/job.repository.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const root = path.resolve(import.meta.dirname, '../..');
const migrate = (args: string[], env: Record<string, string>) =>
  runCommand(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/migrate.ts'), ...args], { ...process.env, ...env });

let sqlite: TestService;
let postgres: TestService | undefined;
let key: string;
const pages = ['/api/v1/channels/moved/pages/first', '/api/v1/channels/moved/pages/second', '/api/v1/channels/moved/pages?limit=10', '/api/v1/channels'];

beforeAll(async () => {
  sqlite = await startTestService({}, { startWorker: false });
  key = await sqlite.key('mover', 'pro');
  const channel = await sqlite.request('POST', '/api/v1/channels', { key, body: { slug: 'moved', default_language: 'en', translations: [{ language: 'en', title: 'Moved' }, { language: 'fr', title: 'Déplacé' }] } });
  expect(channel.status, channel.text).toBe(201);
  for (const [slug, status] of [['first', 'published'], ['second', 'draft']] as const) {
    const written = await sqlite.request('POST', '/api/v1/channels/moved/pages', {
      key,
      body: { slug, default_language: 'en', status, translations: [{ language: 'en', title: `The ${slug} one`, content_markdown: `## ${slug}\n\nText about lighthouses.` }, { language: 'fr', title: `Le ${slug}`, content_markdown: 'Du texte.' }] },
    });
    expect(written.status, written.text).toBe(201);
  }
  // Due an hour after the test clock's time: its job waits in the queue when the copy is made.
  const later = await sqlite.request('POST', '/api/v1/channels/moved/pages', {
    key,
    body: { slug: 'later', default_language: 'en', status: 'scheduled', scheduled_at: '2026-11-22T13:00:00.000Z', translations: [{ language: 'en', title: 'Later', content_markdown: 'Soon.' }] },
  });
  expect(later.status, later.text).toBe(201);
  await sqlite.service.worker.runDue();
  // And a job that failed its every attempt, kept with its error.
  const parked = await insertJob(sqlite.service.db, { kind: 'moderate_revision', payload: { revisionId: 999 }, runAt: '2026-11-22T11:00:00.000Z', now: '2026-11-22T11:00:00.000Z' });
  await sqlite.service.db.updateTable('jobs').set({ state: 'parked', attempts: 5, last_error: 'Error: the policy file was unreadable' }).where('id', '=', parked.id).execute();
});
afterAll(async () => {
  await postgres?.stop();
  await sqlite?.stop();
});

describe('npm run migrate -- --copy-to', () => {
  it('copies every row, and a server on the copy answers as the SQLite one did', async () => {
    const before = await Promise.all(pages.map((p) => sqlite.request('GET', p, { key })));
    expect(before.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(before[0]!.json.translations.map((t: { status: string }) => t.status)).toEqual(['published', 'published']);
    await sqlite.service.stop();

    const url = await (await sharedPostgres()).createDatabase();
    const copied = await migrate(['--copy-to', url], { PRESSROOM_DATA_DIR: path.join(sqlite.dir, 'data') });
    expect(copied.code, copied.stderr).toBe(0);
    expect(copied.stdout).toMatch(/articles: 3 rows/);
    expect(copied.stdout).toMatch(/jobs: 3 rows/);
    expect(copied.stdout).toContain('Start the server with PRESSROOM_DATABASE_URL');
    expect(copied.stderr).toContain('revisions: 100 %');

    postgres = await startTestService({ PRESSROOM_DATABASE_URL: url }, { startWorker: false, syncSearchIndex: true });
    const after = await Promise.all(pages.map((p) => postgres!.request('GET', p, { key })));
    expect(after.map((r) => r.json)).toEqual(before.map((r) => r.json));
    // The jobs still to run, in the Postgres queue; finished ones are not carried over.
    const jobs = (await listJobs(postgres.service.db)).map((j) => ({ kind: j.kind, state: j.state, run_at: j.run_at, attempts: j.attempts, last_error: j.last_error }));
    expect(jobs.sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: 'media_cleanup', state: 'pending', run_at: '2026-11-22T13:00:00.000Z', attempts: 0, last_error: null },
      { kind: 'moderate_revision', state: 'parked', run_at: '2026-11-22T11:00:00.000Z', attempts: 5, last_error: 'Error: the policy file was unreadable' },
      { kind: 'publish_scheduled', state: 'pending', run_at: '2026-11-22T13:00:00.000Z', attempts: 0, last_error: null },
    ]);
    postgres.clock.advance(60 * 60 * 1000);
    await postgres.service.worker.runDue();
    expect((await postgres.request('GET', '/api/v1/channels/moved/pages/later', { key })).json.status).toBe('published');
    await postgres.stop();

    // With the static build on, the read API's search index is made again and finds the published article only.
    postgres = await startTestService({ PRESSROOM_DATABASE_URL: url, PRESSROOM_STATIC_BUILD: 'true' }, { startWorker: false, syncSearchIndex: true });
    await postgres.service.searchIndex!.idle();
    const found = await postgres.request('GET', '/api/public/v1/search?q=lighthouses');
    expect(found.status, found.text).toBe(200);
    expect(found.json.results.map((r: { slug: string; language: string }) => `${r.slug}:${r.language}`)).toEqual(['first:en']);

    // New rows are numbered past the copied ones.
    const third = await postgres.request('POST', '/api/v1/channels/moved/pages', { key, body: { slug: 'third', default_language: 'en', translations: [{ language: 'en', title: 'Third', content_markdown: 'New.' }] } });
    expect(third.status, third.text).toBe(201);
    expect(third.json.id).toBeGreaterThan(Math.max(before[0]!.json.id, before[1]!.json.id));

    // Again into the same database: refused, nothing mixed.
    const again = await migrate(['--copy-to', url], { PRESSROOM_DATA_DIR: path.join(sqlite.dir, 'data') });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('holds data already');
  }, 120_000);

  it('says what it takes when asked wrongly', async () => {
    const onPostgres = await migrate(['--copy-to', 'postgres://a@127.0.0.1:1/x'], { PRESSROOM_DATABASE_URL: 'postgres://a@127.0.0.1:1/y' });
    expect(onPostgres.code).toBe(2);
    expect(onPostgres.stderr).toContain('unset it for this command');
    const noUrl = await migrate(['--copy-to', 'data/other.db'], {});
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('--copy-to takes one Postgres URL');
  });
});

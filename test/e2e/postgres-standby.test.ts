/**
 * A standby server on a Postgres database (issue 38, items 5 and 7 for the
 * shape that exists: one server writing, others waiting). `npm start` with
 * `PRESSROOM_STANDBY=true` on a database another server holds says who holds
 * it and waits without listening; when that server is killed with SIGKILL in
 * the middle of a burst of publishes, the standby takes the database over:
 * every acknowledged write is there, every article is published exactly
 * once, the jobs the dead server held run, and the output folder they share
 * equals a fresh full build of the same data, file for file and byte for
 * byte. A server whose lock connection is cut stops, and the `content/`
 * watcher moves with the lock. A standby on the SQLite file is refused by
 * name.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { openDatabase, type Db } from '../../server/store/database.ts';
import { instanceName } from '../../server/store/postgres/postgres-database.ts';
import { pollUntil } from '../helpers/poll.ts';
import { sharedPostgres, type PostgresCluster } from '../helpers/postgres-cluster.ts';
import { freshFullBuild, builtSiteFiles, publications } from '../helpers/fresh-build.ts';
import { killProcess, serviceEnv, startServerProcess, startStandbyProcess, type ServerProcess, type StandbyProcess } from '../helpers/service-process.ts';

let cluster: PostgresCluster;
let dir: string;
const processes: ChildProcess[] = [];
const opened: Db[] = [];

beforeAll(async () => {
  cluster = await sharedPostgres();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-standby-'));
});
afterAll(async () => {
  await Promise.all(processes.map(killProcess));
  for (const db of opened) await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A standby, its process killed after the file's tests if still running. */
function startStandby(env: NodeJS.ProcessEnv): StandbyProcess {
  const standby = startStandbyProcess(env);
  processes.push(standby.child);
  return standby;
}

describe('a standby server', () => {
  it('waits while another server holds the database, takes over when it is killed mid-burst, loses no acknowledged write and publishes each article once', async () => {
    const url = await cluster.createDatabase();
    // One data folder and one output folder for both: the shared folder of two machines.
    const env = serviceEnv(dir, { PRESSROOM_DATABASE_URL: url, PRESSROOM_IMPORT_CONTENT: 'false', PRESSROOM_SOCIAL_CARDS: 'false', PRESSROOM_PUBLIC_URL: 'http://pressroom.test', PRESSROOM_LOG_LEVEL: 'info' });
    const first: ServerProcess = await startServerProcess(env);
    processes.push(first.child);
    const key = fs.readFileSync(path.join(dir, 'data/dev-api-key.txt'), 'utf8').trim();
    const call = (base: string, method: string, p: string, body?: unknown) =>
      fetch(`${base}/api/v1${p}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    expect((await call(first.url, 'POST', '/channels', { slug: 'relay', default_language: 'en', translations: [{ language: 'en', title: 'Relay' }] })).status).toBe(201);

    const standby = startStandby(env);
    const said = await standby.waiting;
    expect(said).toContain(instanceName(first.pid));

    // A burst of publishes, with the first server killed once ten were acknowledged.
    const acknowledged: string[] = [];
    let killed = false;
    const kill = () => {
      if (killed) return;
      killed = true;
      first.child.kill('SIGKILL');
    };
    const writes = Array.from({ length: 40 }, async (_, i) => {
      const slug = `story-${i}`;
      const res = await call(first.url, 'POST', '/channels/relay/pages', {
        slug,
        default_language: 'en',
        status: 'published',
        translations: [{ language: 'en', title: `Story ${i}`, content_markdown: `Story number ${i}.` }],
      }).catch(() => null);
      if (res?.status === 201) {
        acknowledged.push(slug);
        if (acknowledged.length >= 10) kill();
      }
    });
    await Promise.all(writes);
    kill();
    expect(acknowledged.length).toBeGreaterThanOrEqual(10);

    const second = await standby.listening;
    // Every acknowledged write is there, and is published (its moderation job ran, on whichever server); so is
    // every write that committed before its answer was lost with the server.
    const db = openDatabase(url);
    opened.push(db);
    const rows = await pollUntil(
      () => db.selectFrom('articles').select(['slug', 'status']).execute(),
      (r) => acknowledged.every((slug) => r.some((row) => row.slug === slug)) && r.every((row) => row.status === 'published'),
      { what: 'every written article to be published by the server that took over', timeoutMs: 60_000, intervalMs: 200 },
    );
    for (const slug of acknowledged) expect((await call(second, 'GET', `/channels/relay/pages/${slug}`)).status).toBe(200);
    // Published once: one public change per article, one passed revision per translation.
    expect(await publications(db)).toEqual({ articles: rows.length, eachOnce: true, oneRevisionEach: true });

    // The output: every event built, then the folder equals a fresh full build of a copy of the data.
    await pollUntil(
      async () => (await db.selectFrom('publication_events').select('id').where('built_at', 'is', null).execute()).length,
      (n) => n === 0,
      { what: 'every change to be built', timeoutMs: 60_000, intervalMs: 200 },
    );
    for (const slug of acknowledged) expect(fs.existsSync(path.join(dir, 'dist/relay/en', `${slug}.html`)), slug).toBe(true);
    await standby.stop();
    const fresh = await freshFullBuild(cluster, url, env, path.join(dir, 'fresh'));
    expect(fresh.build.code, fresh.build.stderr).toBe(0);
    const served = builtSiteFiles(path.join(dir, 'dist'));
    const rebuilt = builtSiteFiles(fresh.dist);
    expect([...rebuilt.keys()]).toEqual(expect.arrayContaining(acknowledged.map((slug) => `relay/en/${slug}.html`)));
    expect([...served.keys()].sort()).toEqual([...rebuilt.keys()].sort());
    for (const [rel, bytes] of rebuilt) expect(bytes.equals(served.get(rel)!), rel).toBe(true);
  }, 240_000);

  it('stops a server whose lock connection is cut, and the standby takes over', async () => {
    const url = await cluster.createDatabase();
    const folder = path.join(dir, 'cut');
    // The content/ folder both servers see: its watcher belongs to whichever holds the database.
    const content = path.join(folder, 'content');
    fs.mkdirSync(path.join(content, 'notes'), { recursive: true });
    fs.writeFileSync(path.join(content, 'notes/channel.md'), '---\ndefault_language: en\nstatus: active\ntranslations:\n  - language: en\n    title: Notes\n---\n');
    const env = serviceEnv(folder, { PRESSROOM_DATABASE_URL: url, PRESSROOM_IMPORT_CONTENT: 'true', PRESSROOM_CONTENT_DIR: content, PRESSROOM_STATIC_BUILD: 'false' });
    const first = await startServerProcess(env);
    processes.push(first.child);
    const standby = startStandby(env);
    await standby.waiting;
    // The database ends the connection that holds the first server's lock (a restart, a network cut, an operator).
    const db = openDatabase(url);
    opened.push(db);
    const { sql } = await import('kysely');
    const cut = await sql<{ done: boolean }>`select pg_terminate_backend(pid) as done from pg_stat_activity where application_name = ${instanceName(first.pid)}`.execute(db);
    expect(cut.rows.map((r) => r.done)).toEqual([true]);
    const code = await new Promise<number | null>((resolve) => (first.child.exitCode !== null ? resolve(first.child.exitCode) : first.child.once('exit', (c) => resolve(c))));
    expect(code).toBe(1);
    expect(first.stderr()).toContain('lost the connection that holds this server\'s lock on the database');
    expect(first.stderr()).toContain('Stopping: this server no longer holds its lock on the database');
    const second = await standby.listening;
    expect((await fetch(`${second}/api/v1/openapi.json`)).status).toBe(200);
    // The content/ watcher moved with the database: an editor's new file is imported by the server that took over.
    fs.mkdirSync(path.join(content, 'notes/after'), { recursive: true });
    fs.writeFileSync(path.join(content, 'notes/after/en.md'), '---\ntitle: Written after the takeover\nstatus: published\n---\n\nImported by the standby.\n');
    await pollUntil(() => db.selectFrom('articles').select('slug').where('slug', '=', 'after').execute(), (rows) => rows.length === 1, { what: 'the new content file to be imported by the server that took over' });
  }, 120_000);

  it('is refused on the SQLite file, by name', () => {
    expect(() => loadConfig({ PRESSROOM_STANDBY: 'true' }, '/tmp')).toThrow(/PRESSROOM_STANDBY: .*set PRESSROOM_DATABASE_URL too/);
  });
});

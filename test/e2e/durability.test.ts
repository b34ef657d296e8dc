/**
 * Issue 39: the running server's database survives the documented tools
 * beside it. Everything is real: the server is `scripts/start.ts` in its own
 * process on a data folder started before (the case that lost writes: every
 * start but the first), the tools are Debian's `sqlite3` and the project's
 * npm scripts in processes of their own, and the server's open files are read
 * from `/proc/<pid>/fd`. While a burst of publishing API writes runs, each
 * tool runs beside it; after each, and after a graceful stop, every
 * acknowledged write is in the database, `PRAGMA integrity_check` is `ok`,
 * and the server holds no deleted WAL or SHM.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  deletedHandles,
  npmRun,
  serviceEnv,
  sqlite3,
  sqliteLibraries,
  startServerProcess,
  type CommandResult,
  type ServerProcess,
} from '../helpers/service-process.ts';
import { pollUntil } from '../helpers/poll.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-durability-'));
const env = serviceEnv(dir);
const dataDir = path.join(dir, 'data');
const databaseFile = path.join(dataDir, 'pressroom.db');
const running: ServerProcess[] = [];
/** Every slug the API acknowledged with 201, over the whole file. */
const acknowledged: string[] = [];
let devKey = '';

// A failed test leaves no server behind to share the data folder with the next.
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function start(): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  running.push(server);
  return server;
}

async function stop(server: ServerProcess): Promise<void> {
  expect(await server.stop(), server.stderr()).toBe(0);
  running.splice(running.indexOf(server), 1);
}

function call(url: string, key: string, method: string, p: string, body?: unknown) {
  return fetch(`${url}/api/v1${p}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** `n` drafts sent at once; resolves with the slugs acknowledged (each must be). */
async function burst(server: ServerProcess, tag: string, n = 8): Promise<string[]> {
  const slugs = Array.from({ length: n }, (_, i) => `${tag}-${i}`);
  const answers = await Promise.all(
    slugs.map((slug) =>
      call(server.url, devKey, 'POST', '/channels/durable/pages', {
        slug,
        default_language: 'en',
        status: 'draft',
        translations: [{ language: 'en', title: `Draft ${slug}`, content_markdown: 'Kept.' }],
      }).then(async (res) => ({ slug, status: res.status, text: await res.text() })),
    ),
  );
  for (const a of answers) expect(a.status, a.text).toBe(201);
  acknowledged.push(...slugs);
  return slugs;
}

/** The slugs of `wanted` that the database does not hold, read by `sqlite3 -readonly` beside the server. */
async function missing(wanted: readonly string[], file = databaseFile): Promise<string[]> {
  const result = await sqlite3(file, ['-readonly', "select slug from articles where slug like 'r%' or slug like 't%'"]);
  expect(result.code, result.stderr).toBe(0);
  const present = new Set(result.stdout.split('\n'));
  return wanted.filter((slug) => !present.has(slug));
}

async function integrity(file = databaseFile): Promise<string> {
  const result = await sqlite3(file, ['-readonly', 'pragma integrity_check']);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.trim();
}

/** The checks after each tool: nothing lost, nothing corrupt, no deleted handle. */
async function expectIntact(server: ServerProcess, what: string): Promise<void> {
  expect(await missing(acknowledged), `acknowledged writes missing after ${what}`).toEqual([]);
  expect(await integrity(), `integrity after ${what}`).toBe('ok');
  expect(deletedHandles(server.pid, dataDir), `deleted handles after ${what}`).toEqual([]);
}

function ok(result: CommandResult, what: string): CommandResult {
  expect(result.code, `${what}: ${result.stderr}`).toBe(0);
  return result;
}

/** A new key from `npm run admin -- key create`, and proof that the running server takes it at once. */
async function createKeyBeside(server: ServerProcess, account: string): Promise<void> {
  const key = ok(await npmRun('admin', ['key', 'create', '--account', account], env), 'admin key create').stdout.trim();
  const res = await call(server.url, key, 'GET', '/channels');
  expect(res.status, `a key made by admin (${account}) on the running server`).toBe(200);
}

beforeAll(async () => {
  // The first start creates the data folder; every start after it is an ordinary one.
  const first = await start();
  devKey = fs.readFileSync(path.join(dataDir, 'dev-api-key.txt'), 'utf8').trim();
  const res = await call(first.url, devKey, 'POST', '/channels', { slug: 'durable', default_language: 'en', translations: [{ language: 'en', title: 'Durable' }] });
  expect(res.status, await res.text()).toBe(201);
  await stop(first);
}, 120_000);

describe('the reproduction of issue 39 on a second start, 20 times', () => {
  it('loses no acknowledged write, corrupts nothing and holds no deleted WAL beside sqlite3 .backup, sqlite3 -readonly and admin', async () => {
    const tally = { lost: 0, integrityErrors: 0, deletedHandles: 0 };
    for (let round = 0; round < 20; round++) {
      const server = await start();
      const mine: string[] = [];
      // The README's backup command and a read-only inspection, while drafts are acknowledged.
      const [a, backup, query] = await Promise.all([
        burst(server, `r${round}a`),
        sqlite3(databaseFile, [`.backup ${path.join(dir, `sqlite3-backup-${round}.db`)}`]),
        sqlite3(databaseFile, ['-readonly', '-cmd', '.timeout 5000', 'select count(*) from api_keys']),
      ]);
      ok(backup, 'sqlite3 .backup');
      ok(query, 'sqlite3 -readonly');
      mine.push(...a);
      // A key made after that point works at once, while more drafts are acknowledged.
      const [b] = await Promise.all([burst(server, `r${round}b`), createKeyBeside(server, `ops-${round}`)]);
      mine.push(...b);
      tally.deletedHandles += deletedHandles(server.pid, dataDir).length;
      await stop(server);
      tally.lost += (await missing(mine)).length;
      if ((await integrity()) !== 'ok') tally.integrityErrors++;
      expect(await integrity(path.join(dir, `sqlite3-backup-${round}.db`))).toBe('ok');
    }
    expect(tally).toEqual({ lost: 0, integrityErrors: 0, deletedHandles: 0 });
    expect(await missing(acknowledged)).toEqual([]);
  }, 900_000);
});

describe('each documented tool beside a burst of writes, three times', () => {
  // One server for all rounds: the tools meet a server that has been running a while.
  let server: ServerProcess;

  /** The moderation state of `slug`'s English translation, as the running server reports it. */
  async function moderationOf(slug: string, key: string): Promise<string> {
    const page = (await (await call(server.url, key, 'GET', `/channels/reviewed/pages/${slug}`)).json()) as { translations: Array<{ language: string; moderation: string }> };
    return page.translations.find((t) => t.language === 'en')!.moderation;
  }

  /** A translation waiting for a person, for `moderation approve` to decide. */
  async function awaitingReview(round: number, key: string): Promise<string> {
    const slug = `t${round}-review`;
    const res = await call(server.url, key, 'POST', '/channels/reviewed/pages', {
      slug,
      default_language: 'en',
      status: 'published',
      translations: [{ language: 'en', title: `Review ${round}`, content_markdown: 'For a person.' }],
    });
    expect(res.status, await res.text()).toBe(201);
    await pollUntil(() => moderationOf(slug, key), (state) => state === 'manual_review', { what: `${slug} to wait for a person`, timeoutMs: 60_000, intervalMs: 100 });
    return slug;
  }

  it('sqlite3 .backup and -readonly, admin key create, moderation and list, build, migrate and admin backup', async () => {
    server = await start();
    // One SQLite library in the process: two copies would not see each other's locks.
    const libraries = sqliteLibraries(server.pid);
    expect(libraries).toHaveLength(1);
    const major = Number(process.versions.node.split('.')[0]);
    expect(libraries[0]).toContain(major >= 22 ? '/better-sqlite3-napi/' : '/better-sqlite3/');
    // A flagged account: each of its publications waits for "moderation approve".
    const reviewedKey = ok(await npmRun('admin', ['key', 'create', '--account', 'reviewed', '--plan', 'pro'], env), 'key create').stdout.trim();
    ok(await npmRun('admin', ['account', 'review', '--account', 'reviewed'], env), 'account review');
    const channel = await call(server.url, reviewedKey, 'POST', '/channels', { slug: 'reviewed', default_language: 'en', translations: [{ language: 'en', title: 'Reviewed' }] });
    expect(channel.status, await channel.text()).toBe(201);

    for (let round = 0; round < 3; round++) {
      const tools: Array<[string, () => Promise<void>]> = [
        ['sqlite3 .backup', async () => void ok(await sqlite3(databaseFile, [`.backup ${path.join(dir, `tools-${round}.db`)}`]), 'sqlite3 .backup')],
        ['sqlite3 -readonly', async () => void ok(await sqlite3(databaseFile, ['-readonly', '-cmd', '.timeout 5000', 'select count(*) from articles']), 'sqlite3 -readonly')],
        ['admin key create', () => createKeyBeside(server, `tool-${round}`)],
        [
          'admin moderation approve',
          async () => {
            const slug = await awaitingReview(round, reviewedKey);
            const listed = ok(await npmRun('admin', ['moderation', 'list'], env), 'moderation list');
            expect(listed.stdout).toContain(slug);
            const approved = ok(await npmRun('admin', ['moderation', 'approve', '--channel', 'reviewed', '--article', slug, '--language', 'en'], env), 'moderation approve');
            expect(approved.stdout).toContain('Approved');
            // The running server sees the decision at once.
            expect(await moderationOf(slug, reviewedKey)).toBe('passed');
          },
        ],
        ['admin list', async () => void ok(await npmRun('admin', ['list'], env), 'admin list')],
        ['npm run build', async () => void ok(await npmRun('build', [], env), 'npm run build')],
        ['npm run migrate', async () => expect(ok(await npmRun('migrate', [], env), 'migrate').stdout).toContain('up to date')],
        [
          'admin backup',
          async () => {
            const before = [...acknowledged];
            const file = path.join(dir, `admin-backup-${round}.db`);
            ok(await npmRun('admin', ['backup', file], env), 'admin backup');
            expect(await integrity(file)).toBe('ok');
            expect(await missing(before, file), 'writes acknowledged before the backup started').toEqual([]);
          },
        ],
      ];
      for (const [name, tool] of tools) {
        await Promise.all([burst(server, `t${round}-${name.replace(/\W+/g, '-')}`), tool()]);
        await expectIntact(server, `${name} (round ${round + 1})`);
      }
    }
    await stop(server);
    expect(await missing(acknowledged), 'after a graceful stop').toEqual([]);
    expect(await integrity()).toBe('ok');
  }, 900_000);
});

describe('admin backup', () => {
  it('holds every write acknowledged before it started, while writes go on during the copy', async () => {
    const server = await start();
    const before = await burst(server, 'r-before-backup', 24);
    const file = path.join(dir, 'during.db');
    const [result] = await Promise.all([npmRun('admin', ['backup', file], env), burst(server, 'r-during-backup', 24)]);
    ok(result, 'admin backup');
    expect(result.stdout).toMatch(/^Backed up .* integrity ok/);
    expect(await integrity(file)).toBe('ok');
    expect(await missing(before, file)).toEqual([]);
    // One self-contained file: no WAL beside it, and readers need nothing else.
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    expect((await sqlite3(file, ['-readonly', 'pragma journal_mode'])).stdout.trim()).toBe('delete');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // It never replaces a file.
    const again = await npmRun('admin', ['backup', file], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/exists already; a backup never replaces a file/);
    await stop(server);
  }, 120_000);
});

describe('the server notices detached database files', () => {
  it('answers 503 DATABASE_DETACHED and logs what to do when its WAL is deleted, and stops without overwriting the database', async () => {
    const server = await start();
    expect((await call(server.url, devKey, 'GET', '/channels')).status).toBe(200);
    // An operator's mistake the server cannot prevent: the journal removed under it.
    fs.rmSync(`${databaseFile}-wal`);
    fs.rmSync(`${databaseFile}-shm`);
    const res = await call(server.url, devKey, 'POST', '/channels/durable/pages', {
      slug: 'never-acknowledged',
      default_language: 'en',
      translations: [{ language: 'en', title: 'Never', content_markdown: 'Refused.' }],
    });
    expect(res.status).toBe(503);
    const body = (await res.json()) as { schema_version: string; error: { code: string; message: string } };
    expect(body).toMatchObject({ schema_version: '1.0', error: { code: 'DATABASE_DETACHED' } });
    expect(body.error.message).toMatch(/restart the server/);
    await pollUntil(() => server.stderr(), (text) => text.includes('database files detached'), { what: 'the log line', intervalMs: 100 });
    expect(server.stderr()).toMatch(/database files detached .*pressroom\.db-wal \(deleted\).*Stop the server/);
    await stop(server);
    expect(server.stderr()).toMatch(/database connection left open on stop/);
    // The database file is as the other processes left it; the next start joins it again.
    expect(await integrity()).toBe('ok');
    expect(await missing(acknowledged)).toEqual([]);
    const again = await start();
    expect((await call(again.url, devKey, 'GET', '/channels')).status).toBe(200);
    await stop(again);
  }, 120_000);
});

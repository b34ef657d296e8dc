/**
 * One server per Postgres database, until the distributed shape exists
 * (issue 38): a second `npm start` on a database a server runs on is refused
 * at start with what to do, and starts once the first one stopped (or died:
 * Postgres drops a dead server's lock with its connection). An unreachable
 * database is named, without its password. `npm run build` and admin
 * commands run beside a server, as on SQLite.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedPostgres, type PostgresCluster } from '../helpers/postgres-cluster.ts';
import { runCommand, serviceEnv, startServerProcess, type ServerProcess } from '../helpers/service-process.ts';

const root = path.resolve(import.meta.dirname, '../..');
let cluster: PostgresCluster;
let dir: string;
const started: ServerProcess[] = [];

const start = async (env: NodeJS.ProcessEnv) => {
  const server = await startServerProcess(env);
  started.push(server);
  return server;
};

/** Runs `scripts/start.ts` expecting it to refuse; resolves with its exit code and stderr. */
const refusedStart = (env: NodeJS.ProcessEnv) => runCommand(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/start.ts')], env);

beforeAll(async () => {
  cluster = await sharedPostgres();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-instances-'));
});
afterAll(async () => {
  for (const server of started) await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('servers on one Postgres database', () => {
  it('refuses a second server while one runs, and starts it once the first stopped or died', async () => {
    const url = await cluster.createDatabase();
    const env = (name: string) => serviceEnv(path.join(dir, name), { PRESSROOM_DATABASE_URL: url, PRESSROOM_IMPORT_CONTENT: 'false', PRESSROOM_STATIC_BUILD: 'false' });
    const first = await start(env('a'));

    const second = await refusedStart(env('b'));
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('Another Pressroom server already runs on the database');
    expect(second.stderr).toContain('docs/DEPLOYING.md');

    // Beside the running server, as on SQLite: an admin command and a migration.
    const admin = await runCommand(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/admin.ts'), 'list'], env('a'));
    expect(admin.code, admin.stderr).toBe(0);
    const migrate = await runCommand(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/migrate.ts')], env('a'));
    expect(migrate.code, migrate.stderr).toBe(0);
    expect(migrate.stdout).toContain('Database is up to date');

    expect(await first.stop()).toBe(0);
    const third = await start(env('b'));
    expect((await fetch(`${third.url}/api/v1/openapi.json`)).status).toBe(200);

    // A server killed outright holds nothing: its lock went with its connection.
    third.child.kill('SIGKILL');
    await third.stop();
    const fourth = await start(env('c'));
    expect((await fetch(`${fourth.url}/api/v1/openapi.json`)).status).toBe(200);
    await fourth.stop();
  });

  it('names an unreachable database without its password, and what to check', async () => {
    const env = serviceEnv(path.join(dir, 'unreachable'), { PRESSROOM_DATABASE_URL: `postgres://app:s3cret@127.0.0.1:${cluster.port === 1 ? 2 : 1}/pressroom` });
    const refused = await refusedStart(env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Could not connect to the Postgres database postgres://app:***@127.0.0.1:1/pressroom');
    expect(refused.stderr).toContain('Check PRESSROOM_DATABASE_URL');
    expect(refused.stderr).not.toContain('s3cret');
  });
});

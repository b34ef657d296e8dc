/**
 * A throwaway Postgres cluster (Debian's `postgresql` package) for the tests
 * of the Postgres store (issue 38): `initdb` into a temp folder, `pg_ctl`
 * on a free loopback port, removed by `stop()`. As root, the server runs as
 * the package's unprivileged `postgres` user (Postgres refuses to run as
 * root). `POSTGRES_MISSING` says why it cannot run here (null when it can);
 * under CI a missing Postgres is a failure, never a skip.
 * @module
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.ts';

const run = promisify(execFile);

/** The folder of the newest installed server's programs (Debian keeps them out of PATH). */
function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? path.join(root, versions[0]!, 'bin') : null;
}

const BIN = postgresBin();

/** Why Postgres cannot run here, or null. */
export const POSTGRES_MISSING = BIN ? null : 'No Postgres server under /usr/lib/postgresql: apt-get install postgresql (.ci/run installs it).';

const asRoot = process.getuid?.() === 0;

/** Runs a server program, as `postgres` when this process is root. */
async function runServerProgram(program: string, args: readonly string[]): Promise<string> {
  const file = path.join(BIN!, program);
  const { stdout, stderr } = asRoot ? await run('runuser', ['-u', 'postgres', '--', file, ...args]) : await run(file, [...args]);
  return stdout + stderr;
}

/** A running cluster. */
export interface PostgresCluster {
  readonly port: number;
  /** A new, empty database; its URL. */
  createDatabase(): Promise<string>;
  /** A new database holding a copy of the one at `url` (`pg_dump`, consistent while it is in use); its URL. */
  copyDatabase(url: string): Promise<string>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** The superuser `initdb` makes; connections from loopback are trusted. */
const USER = 'pressroom';

/** Starts a cluster; rejects with the server's own words when it will not start. */
export async function startPostgres(): Promise<PostgresCluster> {
  if (POSTGRES_MISSING) throw new Error(POSTGRES_MISSING);
  // The `postgres` user must reach the folder: a private TMPDIR (the benchmarks make one per run) would stop it.
  const dir = fs.mkdtempSync(path.join(asRoot ? '/tmp' : os.tmpdir(), 'pressroom-postgres-'));
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    fs.chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = path.join(dir, 'data');
  const port = await freePort();
  await runServerProgram('initdb', ['-D', data, '-U', USER, '--auth=trust', '--encoding=UTF8', '--no-locale', '--no-sync']);
  const options = [`-p ${port}`, `-k ${dir}`, "-c listen_addresses='127.0.0.1'", '-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off', '-c max_connections=200'];
  try {
    await runServerProgram('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', options.join(' '), '-w', '-t', '60', 'start']);
  } catch (error) {
    const log = fs.existsSync(path.join(dir, 'server.log')) ? fs.readFileSync(path.join(dir, 'server.log'), 'utf8') : '';
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`Postgres did not start: ${(error as Error).message}\n${log}`);
  }
  let made = 0;
  const cluster: PostgresCluster = {
    port,
    async createDatabase() {
      const name = `pressroom_${++made}`;
      const client = new pg.Client({ host: '127.0.0.1', port, user: USER, database: 'postgres' });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://${USER}@127.0.0.1:${port}/${name}`;
    },
    async copyDatabase(url) {
      const copy = await cluster.createDatabase();
      const { stdout: dump } = await run(path.join(BIN!, 'pg_dump'), ['--no-owner', url], { maxBuffer: 1 << 30 });
      const restore = execFile(path.join(BIN!, 'psql'), ['--quiet', '--set=ON_ERROR_STOP=1', copy]);
      await new Promise<void>((resolve, reject) => {
        restore.on('error', reject);
        restore.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql exited with ${code} restoring a copy of ${url}`))));
        restore.stdin!.end(dump);
      });
      return copy;
    },
    async stop() {
      try {
        await runServerProgram('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  return cluster;
}

let shared: Promise<PostgresCluster> | null = null;

/** One cluster for the whole test file's process, started at the first call (`test/setup/postgres-store.ts` stops it). */
export function sharedPostgres(): Promise<PostgresCluster> {
  shared ??= startPostgres();
  return shared;
}

/** Stops the shared cluster, if one was started. */
export async function stopSharedPostgres(): Promise<void> {
  const cluster = shared;
  shared = null;
  if (cluster) await (await cluster).stop();
}

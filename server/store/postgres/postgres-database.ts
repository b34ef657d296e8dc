/**
 * The Postgres store (issue 38): kysely's Postgres dialect over a `pg` pool,
 * the one module that loads `pg`.
 *
 * What the repositories may take for granted, as on SQLite:
 * - **Transactions are serialised.** SQLite has one writer at a time
 *   (`immediate-dialect.ts` begins every transaction as a write), and the
 *   services were written for it: a transaction that reads, decides and
 *   writes is never interleaved with another one. Here every transaction
 *   begins by taking one transaction-level advisory lock
 *   ({@link WRITE_LOCK_KEY}), so the same holds across every process that
 *   shares the database. Reads outside transactions never wait for it.
 * - **Integers are numbers.** Postgres's `bigint` (every integer column,
 *   `count(*)`) arrives as a string from `pg`; it is read as a number here
 *   (the values are ids, sizes and milliseconds, far below 2^53).
 * - **Text sorts by code point** (SQLite's BINARY): every text column is
 *   `COLLATE "C"` (`migrations/0001-schema.ts`), whatever the database's
 *   own locale.
 * @module
 */
import os from 'node:os';
import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresDriver,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type PostgresDialectConfig,
  type TransactionSettings,
} from 'kysely';
import type { Database } from '../schema.ts';
import { describeError } from '../../describe-error.ts';
import { InternalError } from '../../internal-error.ts';

/** Whether a database location names a Postgres database rather than a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//.test(location);
}

/** A Postgres URL as logs and messages show it: without its password. */
export function shownDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(an address that does not parse)';
  }
}

/**
 * The advisory lock every transaction takes first (`pg_advisory_xact_lock`),
 * released at its commit or rollback. A fixed number ("PRSR" in ASCII).
 */
export const WRITE_LOCK_KEY = 0x50525352;

/** Connections the server's request thread (and a command) keeps open at most. */
export const POOL_SIZE = 10;

/** Connections a build, render or search thread keeps open at most: its reads come one after another. */
export const WORKER_POOL_SIZE = 2;

const INT8_OID = 20;

/** `pg`'s type parsers, with `bigint` read as a number. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/** kysely's Postgres driver, with the write lock taken at the start of every transaction. */
class SerialisedPostgresDriver extends PostgresDriver {
  override async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await super.beginTransaction(connection, settings);
    // A read-only transaction (`readConsistently`) writes nothing, so it waits for no writer: its snapshot is enough.
    if (settings.accessMode === 'read only') return;
    await connection.executeQuery(CompiledQuery.raw(`select pg_advisory_xact_lock(${WRITE_LOCK_KEY})`));
  }
}

/** kysely's Postgres dialect, with {@link SerialisedPostgresDriver}. */
class SerialisedPostgresDialect implements Dialect {
  constructor(private readonly config: PostgresDialectConfig) {}
  createDriver() {
    return new SerialisedPostgresDriver(this.config);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createAdapter() {
    return new PostgresAdapter();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}

/**
 * Opens a pool on `url`. Connections are made at the first query, so a
 * wrong address or password is reported there (by `migrateToLatest`, at
 * every start).
 */
export function openPostgres(url: string, connections = POOL_SIZE): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: url, max: connections, types, application_name: 'pressroom' });
  // An idle connection the server closes (a restart, a failover) is dropped from the pool, not thrown.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new SerialisedPostgresDialect({ pool }) });
  urls.set(db, url);
  return db;
}

// The address each handle was opened on: the job queue's runner and migrations open connections of their own.
const urls = new WeakMap<Kysely<Database>, string>();

/** The URL `db` was opened on (`openPostgres`). @throws {InternalError} for a handle this module did not open. */
export function postgresUrl(db: Kysely<Database>): string {
  const url = urls.get(db);
  if (url === undefined) throw new InternalError('INVARIANT_BROKEN', 'A Postgres operation was asked of a handle not opened on a Postgres URL.');
  return url;
}

/**
 * The session-level advisory lock a server holds for as long as it runs on
 * a Postgres database ("PRSI"). One server at a time builds for a database
 * (web instances take no lock and answer beside it; `npm run worker` processes
 * render the batches of its full builds it hands out): a second server is refused at start, or, as a standby
 * (`PRESSROOM_STANDBY`), waits for this lock and takes over when the holder
 * stops or dies. `npm run build`, `migrate` and `admin` do not take it: they
 * are safe beside a server, as on SQLite.
 */
export const INSTANCE_LOCK_KEY = 0x50525349;

/** The error a process that cannot reach the database at `url` stops with: the address without its password, and what to check. */
export function databaseUnreachable(url: string, cause: unknown): InternalError {
  return new InternalError(
    'DATABASE_UNREACHABLE',
    `Could not connect to the Postgres database ${shownDatabaseUrl(url)}: ${describeError(cause)}. Check PRESSROOM_DATABASE_URL (user, password, host, port, database name) and that the server runs and accepts connections from this machine.`,
    { cause },
  );
}

/** The lock {@link holdInstanceLock} took; `release()` closes its connection. */
export interface InstanceLock {
  release(): Promise<void>;
}

/**
 * How a server names itself to the database (`application_name` of its
 * lock's connection): a standby's log says who holds the lock. Postgres keeps
 * 63 bytes of it, so the pid comes before the host name, which may be long.
 */
export function instanceName(pid = process.pid, host = os.hostname()): string {
  return Buffer.from(`pressroom pid ${pid} on ${host}`).subarray(0, 63).toString().replace(/\uFFFD$/, '');
}

/** Who holds the instance lock now, as a standby's log shows it ("pressroom on web-1 pid 4242, since …"). */
async function lockHolder(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ name: string; since: Date | null }>(
    `select a.application_name as name, a.backend_start as since from pg_locks l join pg_stat_activity a on a.pid = l.pid
     where l.locktype = 'advisory' and l.granted and l.classid = 0 and l.objid = $1 and l.objsubid = 1 limit 1`,
    [INSTANCE_LOCK_KEY],
  );
  const holder = rows[0];
  if (!holder) return 'a server that is stopping';
  return `${holder.name || 'an unnamed client'}${holder.since ? `, connected since ${holder.since.toISOString()}` : ''}`;
}

/**
 * Takes the instance lock on a connection of its own, kept open while the
 * server runs; Postgres releases it when that connection ends, so a server
 * that died holds nothing. `onLost` is called if the connection ends while
 * held (the database restarted, a network cut): a standby may then take
 * over, so the server must stop writing at once.
 * @param options.standby when the lock is held: told who holds it, then the
 *   lock is waited for (Postgres grants it the moment the holder's
 *   connection ends), instead of refusing.
 * @throws {InternalError} DATABASE_UNREACHABLE, or DATABASE_IN_USE while another server holds it (without `standby`).
 */
export async function holdInstanceLock(url: string, onLost: (reason: string) => void, options: { standby?: (holder: string) => void } = {}): Promise<InstanceLock> {
  const client = new pg.Client({ connectionString: url, application_name: instanceName(), keepAlive: true });
  try {
    await client.connect();
  } catch (error) {
    throw databaseUnreachable(url, error);
  }
  let holding = false;
  let releasing = false;
  client.on('error', (error) => {
    if (holding && !releasing) onLost(describeError(error));
  });
  client.on('end', () => {
    if (holding && !releasing) onLost('the connection holding the lock ended');
  });
  try {
    const { rows } = await client.query<{ held: boolean }>('select pg_try_advisory_lock($1) as held', [INSTANCE_LOCK_KEY]);
    if (!rows[0]?.held) {
      if (!options.standby) {
        throw new InternalError(
          'DATABASE_IN_USE',
          `Another Pressroom server already runs on the database ${shownDatabaseUrl(url)} (${await lockHolder(client)}). One server builds per database: stop the other one, give this one a database of its own, start it with PRESSROOM_STANDBY=true to take over when the other one stops, or with PRESSROOM_ROLE=web to answer beside it (docs/DEPLOYING.md).`,
        );
      }
      options.standby(await lockHolder(client));
      await client.query('select pg_advisory_lock($1)', [INSTANCE_LOCK_KEY]);
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    if (InternalError.is(error)) throw error;
    throw new InternalError('DATABASE_UNREACHABLE', `Lost the Postgres database ${shownDatabaseUrl(url)} while taking its server lock: ${describeError(error)}.`, { cause: error });
  }
  holding = true;
  return {
    async release() {
      releasing = true;
      await client.end();
    },
  };
}

/**
 * The first key of every job runner's liveness lock ("PRSW"): the second is
 * `hashtext` of the runner's worker id. A runner holds its lock for as long
 * as its process lives (`holdRunnerLiveness`); a job locked by a runner
 * whose lock anyone can take belongs to a dead process (`postgres-jobs.ts`).
 */
export const RUNNER_LIVENESS_KEY = 0x50525357;

/**
 * Holds runner `workerId`'s liveness lock on a connection of its own, until
 * `release()`; Postgres drops it with the connection when the process dies.
 * @param onLost called if that connection ends before `release()`: the
 *   runner's jobs may then be given to another.
 */
export async function holdRunnerLiveness(url: string, workerId: string, onLost?: () => void): Promise<InstanceLock> {
  const client = new pg.Client({ connectionString: url, application_name: `pressroom runner ${workerId}`.slice(0, 63), keepAlive: true });
  await client.connect();
  let released = false;
  const lost = () => {
    if (released) return;
    released = true;
    onLost?.();
  };
  client.on('error', lost);
  client.on('end', lost);
  await client.query('select pg_advisory_lock($1, hashtext($2))', [RUNNER_LIVENESS_KEY, workerId]);
  return {
    async release() {
      released = true;
      await client.end().catch(() => undefined);
    },
  };
}

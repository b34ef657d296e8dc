/**
 * The SQLite dialect every database handle uses: kysely's, except that a
 * transaction begins as a write (`BEGIN IMMEDIATE`).
 *
 * Why: kysely's driver sends a plain `BEGIN`, which is deferred. A deferred
 * transaction that reads first and writes later holds a read snapshot; if
 * another process (`npm run build`, an admin command, a second server)
 * commits in between, the upgrade to a write fails at once with
 * SQLITE_BUSY(_SNAPSHOT), and `busy_timeout` cannot help: waiting would not
 * make the old snapshot current. `BEGIN IMMEDIATE` takes the write lock
 * before the first read, so the only wait is for the lock itself, which
 * `busy_timeout` retries. Every write in this project goes through
 * `db.transaction()` or a single autocommit statement (which takes the lock
 * when it starts), so this covers the API services, the job worker, the
 * builder's manifest batches, the `content/` importer, the admin commands and
 * the migrations alike.
 *
 * Read-only transactions would take the write lock too; the project has none
 * (reads are single statements, consistent under WAL).
 *
 * And each statement is prepared once per connection (`withStatementCache`):
 * kysely's driver prepares the SQL of every query again, which was a fifth of
 * the store's time in the read API's on-demand answers (issue 36).
 * @module
 */
import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver } from 'kysely';

/** The statement that opens every transaction. */
export const BEGIN_STATEMENT = 'begin immediate';

type SqliteDatabase = BetterSqlite3.Database;
type SqliteStatement = BetterSqlite3.Statement;

/** Distinct SQL texts kept per connection; queries with a list of `?` per item make many, so it is bounded. */
const STATEMENTS_KEPT = 512;

/**
 * The connection as kysely's driver sees it, preparing each SQL text once. A
 * kept statement still being iterated (a streamed query) is never handed
 * out again: a fresh one is prepared for that call.
 */
export function withStatementCache(database: SqliteDatabase): SqliteDatabase {
  const kept = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      const statement = kept.get(sql);
      if (statement && !statement.busy) {
        // Most recently used last, so the oldest goes first when the bound is reached.
        kept.delete(sql);
        kept.set(sql, statement);
        return statement;
      }
      const fresh = database.prepare(sql);
      if (!statement) {
        kept.set(sql, fresh);
        if (kept.size > STATEMENTS_KEPT) kept.delete(kept.keys().next().value!);
      }
      return fresh;
    },
  } as unknown as SqliteDatabase;
}

/** kysely's better-sqlite3 driver, beginning transactions as writes. */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(BEGIN_STATEMENT));
  }
}

/**
 * kysely's SQLite dialect with {@link BEGIN_STATEMENT} for every transaction.
 * @example new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) })
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];

  constructor(config: ConstructorParameters<typeof SqliteDialect>[0] & { database: SqliteDatabase }) {
    const cached = { ...config, database: withStatementCache(config.database) };
    super(cached);
    this.#config = cached;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

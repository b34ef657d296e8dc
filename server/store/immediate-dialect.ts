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
 * @module
 */
import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver } from 'kysely';

/** The statement that opens every transaction. */
export const BEGIN_STATEMENT = 'begin immediate';

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

  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

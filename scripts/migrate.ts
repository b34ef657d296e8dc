/**
 * `npm run migrate`: applies pending database migrations and says which.
 * `npm start` and `npm run admin` migrate on their own; this is for
 * deployments that migrate as a separate step.
 */
import { isPostgresUrl, MIGRATION_NOTE, migrateToLatest, openDatabase, shownDatabase, type Db } from '../server/store/database.ts';
import { copyToPostgres } from '../server/store/copy-to-postgres.ts';
import { describeProgress } from '../server/store/table-rebuild.ts';
import { loadScriptConfig, wantsHelp } from './lib/cli.ts';
import { describeError } from '../server/describe-error.ts';

const HELP = `Usage: npm run migrate
       npm run migrate -- --copy-to postgres://user:password@host:5432/database

Opens the configured database (the SQLite file in PRESSROOM_DATA_DIR, default
./data, or PRESSROOM_DATABASE_URL's Postgres database), creating the file
when missing, and applies every pending migration in order, each in its own
transaction. Prints the migrations applied, or "Database is up to date".
Safe to run while the server runs.

--copy-to URL  Moves to Postgres: migrates the SQLite database, then copies
               every row of it into the Postgres database at URL, which must
               exist and hold no data (createdb …). One transaction: a copy
               that fails leaves it empty. Stop the server first (what it
               writes during the copy would not be in it); then start it with
               PRESSROOM_DATABASE_URL=URL. The read API's search index is not
               copied: the first start indexes again, in the background, or
               run "npm run build" with PRESSROOM_DATABASE_URL set first.
               Progress on stderr, the rows per table on stdout.

A migration that rebuilds a large table (0013) copies it in batches and
prints where it is every few seconds on stderr; the server keeps reading and
writing the old table meanwhile, and only the final switch holds the write
lock. Interrupted (Ctrl-C, a kill), it resumes where it stopped on the next
run.
`;

const args = process.argv.slice(2);
if (wantsHelp(args)) {
  process.stdout.write(HELP);
} else if (args[0] === '--copy-to' && args.length === 2 && isPostgresUrl(args[1]!)) {
  process.exitCode = await copyTo(args[1]!);
} else if (args[0] === '--copy-to') {
  process.stderr.write(`--copy-to takes one Postgres URL (postgres://user:password@host:5432/database).\nRun "npm run migrate -- --help" for details.\n`);
  process.exitCode = 2;
} else if (args.length > 0) {
  process.stderr.write(`Unexpected argument "${args[0]}": migrate takes no arguments but --copy-to URL.\nRun "npm run migrate -- --help" for details.\n`);
  process.exitCode = 2;
} else {
  process.exitCode = await migrate();
}

/** Applies `db`'s pending migrations, saying on stderr which, and where a long one is, before and while they run. */
function migrateReporting(db: Db, location: string): Promise<string[]> {
  return migrateToLatest(
    db,
    (pending) => process.stderr.write(`Applying ${pending.join(', ')} to ${shownDatabase(location)} (${MIGRATION_NOTE})…\n`),
    (progress) => process.stderr.write(`${describeProgress(progress)}\n`),
  );
}

async function copyTo(url: string): Promise<number> {
  const config = loadScriptConfig();
  if (!config) return 2;
  if (config.databaseUrl) {
    process.stderr.write('The copy reads the SQLite file, but PRESSROOM_DATABASE_URL is set: unset it for this command.\n');
    return 2;
  }
  const source = openDatabase(config.databaseFile);
  const target = openDatabase(url);
  try {
    // The SQLite file may be at an old version: its migrations say where they are, as a plain migrate does.
    await migrateReporting(source, config.databaseFile);
    await migrateReporting(target, url);
    process.stderr.write(`Copying ${config.databaseFile} to ${shownDatabase(url)}…\n`);
    let shown = '';
    const started = performance.now();
    const copied = await copyToPostgres(source, target, ({ table, rows, of }) => {
      const line = `${table}: ${Math.floor((rows / Math.max(1, of)) * 10) * 10} %`;
      if (line !== shown) process.stderr.write(`${(shown = line)}\n`);
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const lines = [`Copied ${config.databaseFile} to ${shownDatabase(url)} in ${seconds} s:`, ...[...copied].map(([table, rows]) => `  ${table}: ${rows.toLocaleString('en-US')} row${rows === 1 ? '' : 's'}`)];
    lines.push(
      `Start the server with PRESSROOM_DATABASE_URL set to that URL. Its first start indexes the read API's search again, in the background (searches answer 503 until then); to have search at once, run "npm run build" with PRESSROOM_DATABASE_URL set first: it fills the index.`,
    );
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`${describeError(error)}\n`);
    return 1;
  } finally {
    await source.destroy();
    await target.destroy();
  }
}

async function migrate(): Promise<number> {
  const config = loadScriptConfig();
  if (!config) return 2;
  const db = openDatabase(config.database);
  try {
    const applied = await migrateReporting(db, config.database);
    const lines =
      applied.length === 0
        ? [`Database is up to date (${shownDatabase(config.database)}).`]
        : [`Applied ${applied.length} migration${applied.length === 1 ? '' : 's'} to ${shownDatabase(config.database)}:`, ...applied.map((name) => `  ${name}`)];
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`${describeError(error)}\n`);
    return 1;
  } finally {
    await db.destroy();
  }
}

/**
 * `npm run migrate`: applies pending database migrations and says which.
 * `npm start` and `npm run admin` migrate on their own; this is for
 * deployments that migrate as a separate step.
 */
import { ConfigError, loadConfig } from '../server/config.ts';
import { MIGRATION_NOTE, migrateToLatest, openDatabase, shownDatabase } from '../server/store/database.ts';
import { describeProgress } from '../server/store/table-rebuild.ts';
import { wantsHelp } from './lib/cli.ts';
import { describeError } from '../server/describe-error.ts';

const HELP = `Usage: npm run migrate

Opens the configured SQLite database (PRESSROOM_DATA_DIR, default ./data),
creating it when missing, and applies every pending migration in order, each
in its own transaction. Prints the migrations applied, or
"Database is up to date". Safe to run while the server runs.

A migration that rebuilds a large table (0013) copies it in batches and
prints where it is every few seconds on stderr; the server keeps reading and
writing the old table meanwhile, and only the final switch holds the write
lock. Interrupted (Ctrl-C, a kill), it resumes where it stopped on the next
run.
`;

const args = process.argv.slice(2);
if (wantsHelp(args)) {
  process.stdout.write(HELP);
} else if (args.length > 0) {
  process.stderr.write(`Unexpected argument "${args[0]}": migrate takes no arguments.\nRun "npm run migrate -- --help" for details.\n`);
  process.exitCode = 2;
} else {
  process.exitCode = await migrate();
}

async function migrate(): Promise<number> {
  let config;
  try {
    config = loadConfig(process.env, process.cwd());
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  const db = openDatabase(config.database);
  try {
    // Progress to stderr, before the work: a migration that rebuilds a table should not look like a hang.
    const applied = await migrateToLatest(
      db,
      (pending) => process.stderr.write(`Applying ${pending.join(', ')} to ${shownDatabase(config.database)} (${MIGRATION_NOTE})…\n`),
      (progress) => process.stderr.write(`${describeProgress(progress)}\n`),
    );
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

/**
 * `npm run --silent admin -- <command>`: administers accounts, API keys and
 * channels. The commands live in server/admin/; this entry only reads the
 * process (argv, environment) and writes its output and exit code.
 */
import { systemClock } from '../server/clock.ts';
import { loadConfig } from '../server/config.ts';
import { runAdmin } from '../server/admin/run-admin.ts';
import { migrateToLatest, openDatabase, shownDatabase } from '../server/store/database.ts';
import { describeProgress } from '../server/store/table-rebuild.ts';
import { readSecret } from './lib/read-secret.ts';

const result = await runAdmin(process.argv.slice(2), async () => {
  const config = loadConfig(process.env, process.cwd());
  const db = openDatabase(config.database);
  try {
    // A long table rebuild says where it is on stderr, as npm run migrate does.
    const applied = await migrateToLatest(db, undefined, (progress) => void process.stderr.write(`${describeProgress(progress)}\n`));
    // On stderr, so stdout stays the command's result (a key must be capturable alone).
    const notes = applied.length > 0 ? [`Database ${shownDatabase(config.database)}: applied migrations ${applied.join(', ')}.`] : [];
    const progress = (line: string) => void process.stderr.write(`${line}\n`);
    return { deps: { db, clock: systemClock, progress, readSecret }, notes, close: () => db.destroy() };
  } catch (error) {
    await db.destroy();
    throw error;
  }
});

process.stdout.write(result.stdout);
process.stderr.write(result.stderr);
// exitCode rather than exit(): lets piped output flush before the process ends.
process.exitCode = result.exitCode;

/**
 * `npm run worker`: runs the job queue's moderation and schedule jobs beside
 * the server, on a Postgres database (server/job-worker.ts).
 */
import { startJobWorker } from '../server/job-worker.ts';
import { InternalError } from '../server/internal-error.ts';
import { shownDatabase } from '../server/store/database.ts';
import { loadScriptConfig, wantsHelp } from './lib/cli.ts';

const HELP = `Usage: npm run worker

Runs background jobs of a Postgres database (PRESSROOM_DATABASE_URL) beside
the server: moderation of submitted articles (the rules of
PRESSROOM_MODERATION_FILE, on PRESSROOM_BODY_WORKERS threads under
PRESSROOM_BODY_TIME_LIMIT_MS), scheduled publications, and batches of the
articles of the server's builds of 200 articles or more, rendered on
PRESSROOM_BUILD_WORKERS threads (0: none) into PRESSROOM_OUTPUT_DIR, which
must be the server's output folder (a shared volume): a batch for another
folder, or from a server of another release, is refused with the reason and
rendered by the server. Smaller builds (every publish), lists, the manifest
and the media cleanup stay with the server. Start as many as you like, on any
machine that reaches the database; each job is run by one of them (or by
the server), and a killed worker's job runs again within seconds elsewhere.
Give every worker the server's moderation rules and release. Stops on
SIGINT/SIGTERM after its running jobs. Not for the SQLite file: there the
server runs every job. docs/DEPLOYING.md.
`;

if (wantsHelp(process.argv.slice(2))) {
  process.stdout.write(HELP);
  process.exit(0);
}

const config = loadScriptConfig();
if (!config) process.exit(2);
if (!config.databaseUrl) {
  process.stderr.write('npm run worker runs the jobs of a Postgres database: set PRESSROOM_DATABASE_URL. On the SQLite file the server runs every job itself.\n');
  process.exit(2);
}
try {
  // A render runner cut from the database stops the process (exit 1, as a server that loses its lock): a
  // supervisor starts it again.
  const worker = await startJobWorker(config, { onLost: () => process.exit(1) });
  process.stdout.write(`Pressroom worker running on ${shownDatabase(config.database)}: ${worker.kinds.join(', ')}\n`);
  const shutdown = async (signal: string) => {
    process.stderr.write(`${signal} received, stopping after the running job…\n`);
    await worker.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
} catch (error) {
  if (InternalError.is(error) && error.code === 'DATABASE_UNREACHABLE') {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  throw error;
}

/**
 * `npm start`: runs the whole platform on embedded defaults.
 * Settings come from the environment (README, "Configuration").
 */
import { ConfigError, loadConfig } from '../server/config.ts';
import { InternalError } from '../server/internal-error.ts';
import { applyHeapGrowth } from '../server/heap-growth.ts';
import { bootBuildThread } from '../server/publish/build-thread-boot.ts';
import { wantsHelp } from './lib/cli.ts';

const HELP = `Usage: npm start

Runs Pressroom: migrates the SQLite database, creates a local account with a
development API key and a dashboard password on first run, imports content/,
and starts the server. On a Postgres database another server holds, it
refuses to start, or, with PRESSROOM_STANDBY=true, waits and takes over when
that server stops or dies (docs/DEPLOYING.md). With PRESSROOM_ROLE=web it
answers beside that server instead, building nothing (any number of them).

Settings are environment variables (see README.md, "Configuration"), e.g.
  PORT=8080 HOST=0.0.0.0 PRESSROOM_PUBLIC_URL=https://news.example npm start
`;

if (wantsHelp(process.argv.slice(2))) {
  process.stdout.write(HELP);
  process.exit(0);
}

try {
  const config = loadConfig(process.env, process.cwd());
  applyHeapGrowth(config.heapGrowthPercent);
  // The build thread loads its sources while this thread migrates, imports content/ and starts listening. Not
  // sooner: loading both threads' modules at once on two cores made the first answer a second later.
  const { startService } = await import('../server/main.ts');
  const buildThread = config.role === 'server' && config.staticBuild && config.buildWorkers > 0 ? bootBuildThread() : undefined;
  const service = await startService(config, {
    ...(buildThread ? { buildThread } : {}),
    // The lock on a Postgres database is gone (the server logged why and stopped its writers): a standby may
    // hold it already, so this process must not answer or write any more. A supervisor starts it again.
    onInstanceLockLost: () => {
      process.stderr.write('Stopping: this server no longer holds its lock on the database (see the log line above). Start it again; with PRESSROOM_STANDBY=true it waits to take over.\n');
      process.exit(1);
    },
  });
  const lines = [`Pressroom is running at ${service.url}`, `Publishing API: ${service.url}/api/v1 (docs: ${service.url}/api/v1/openapi.json)`];
  if (config.role === 'web') {
    lines[0] = `Pressroom web instance is running at ${service.url} (beside the server that builds: keys and passwords are the server's)`;
  } else if (service.newDevKey) {
    lines.push(`Development API key (shown once, saved to ${service.devKeyFile}):`, `  ${service.newDevKey}`);
  } else {
    lines.push(`Development API key: see ${service.devKeyFile}`);
  }
  const signIn = service.localSignIn;
  lines.push(`Dashboard: ${service.url}/dashboard`);
  if (config.role === 'web') {
    // Signed in with the accounts' passwords, as on the server.
  } else if (signIn.newPassword) {
    lines.push(`  sign in as "local" with this password (shown once, saved to ${signIn.passwordFile}):`, `  ${signIn.newPassword}`);
  } else if (signIn.canSignIn) {
    lines.push(`  sign in as "local"; its first password is in ${signIn.passwordFile} (a new one: npm run admin -- account password --account local)`);
  } else {
    lines.push('  set a password to sign in as "local" first: npm run admin -- account password --account local');
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  const shutdown = async (signal: string) => {
    process.stderr.write(`${signal} received, stopping…\n`);
    await service.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  if (InternalError.is(error) && (error.code === 'DATABASE_UNREACHABLE' || error.code === 'DATABASE_IN_USE')) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  if (error && typeof error === 'object' && 'code' in error && error.code === 'EADDRINUSE') {
    process.stderr.write(`The port is already in use. Stop the other process or choose another port with PORT=…\n`);
    process.exit(2);
  }
  throw error;
}

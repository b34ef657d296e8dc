/**
 * `npm run deploy`: a full sync of the output folder to the configured
 * bucket (PRESSROOM_DEPLOY_S3_*): uploads what differs, deletes what the
 * output no longer has, then purges what changed from the configured CDNs.
 * `--dry-run` lists the differences and changes nothing. The running server
 * deploys each build by itself; this is for the first upload, after a
 * restore, or to check that the bucket is whole.
 */
import { systemClock } from '../server/clock.ts';
import { applySync, planSync } from '../server/edge/bucket/bucket-sync.ts';
import { s3Bucket } from '../server/edge/bucket/s3-bucket.ts';
import { PURGE_ALL_ABOVE_TAGS } from '../server/edge/edge-delivery.ts';
import { createPurgers } from '../server/edge/purgers/create-purgers.ts';
import { describeError } from '../server/describe-error.ts';
import { tagsToPurge } from '../server/serving/cache-tags.ts';
import { openDatabase, shownDatabase } from '../server/store/database.ts';
import { migrateLogged } from '../server/migrate-logged.ts';
import { createLogger } from '../server/logger.ts';
import { loadScriptConfig, parseScriptArgs, wantsHelp } from './lib/cli.ts';

const PROGRAM = 'npm run deploy --';
const HELP = `Usage: ${PROGRAM} [--dry-run]

Makes the bucket (PRESSROOM_DEPLOY_S3_BUCKET, …) equal to the output folder
(PRESSROOM_OUTPUT_DIR, default dist/): every file uploaded with its content
type, cache policy and cache tags, files the output no longer has deleted.
Leaves first, then the search index's entry, then lists and feeds, then
deletions. Only what differs from what the bucket was last given is sent;
a sync cut short resumes where it stopped. What changed is then purged from
the configured CDNs (PRESSROOM_PURGE_*).

  --dry-run   List what would be uploaded and deleted; change nothing.

Credentials come from the AWS SDK's standard chain (AWS_ACCESS_KEY_ID and
AWS_SECRET_ACCESS_KEY, a profile, an instance role). Progress goes to
stderr, the summary to stdout. Exit codes: 0 done, 1 the bucket or a CDN
refused (what was done is kept), 2 bad settings.
Settings: README.md, "Configuration"; docs/HOSTING.md, "CDN and object storage".
`;

if (wantsHelp(process.argv.slice(2))) {
  process.stdout.write(HELP);
  process.exit(0);
}
const { flags } = parseScriptArgs(
  PROGRAM,
  { usage: '[--dry-run]', options: { 'dry-run': { kind: 'toggle', description: 'List the differences; change nothing.' } }, positionals: [] },
  process.argv.slice(2),
);

const config = loadScriptConfig() ?? process.exit(2);
if (!config.deployBucket) {
  process.stderr.write('No bucket is configured: set PRESSROOM_DEPLOY_S3_BUCKET (and PRESSROOM_DEPLOY_S3_ENDPOINT for R2, GCS or MinIO). See README.md, "Configuration".\n');
  process.exit(2);
}
const log = createLogger(config.logLevel === 'silent' ? 'silent' : 'info', 'deploy');
const db = openDatabase(config.database);
await migrateLogged(db, shownDatabase(config.database), log);
const bucket = s3Bucket(config.deployBucket);
const deps = { db, clock: systemClock, outputDir: config.outputDir, bucket, tagPrefix: config.cacheTagPrefix, maxAgeSeconds: config.cacheMaxAgeSeconds };
try {
  const started = performance.now();
  process.stderr.write(`Comparing ${config.outputDir} with ${bucket.name}…\n`);
  const plan = await planSync(deps, 'all');
  const uploads = plan.uploads.flat();
  if (flags['dry-run']) {
    for (const p of uploads) process.stdout.write(`upload ${p}\n`);
    for (const p of plan.deletes) process.stdout.write(`delete ${p}\n`);
    process.stdout.write(`Dry run: ${uploads.length} to upload, ${plan.deletes.length} to delete, ${plan.unchanged} unchanged in ${bucket.name}.\n`);
  } else {
    let last = 0;
    const result = await applySync(deps, plan, (done, total, bytes) => {
      const now = performance.now();
      if (now - last < 1_000 && done < total) return;
      last = now;
      process.stderr.write(`  ${done}/${total} objects, ${(bytes / 1_048_576).toFixed(1)} MB\n`);
    });
    const purgers = createPurgers(config.purgeTargets);
    const tags = tagsToPurge(config.cacheTagPrefix, result.paths);
    const everything = tags.length > PURGE_ALL_ABOVE_TAGS;
    let requests = 0;
    if (tags.length > 0) {
      for (const purger of purgers) requests += await purger.purge(everything ? { tags: [config.cacheTagPrefix], paths: [], everything } : { tags, paths: result.paths, everything });
    }
    process.stdout.write(
      `Deployed ${config.outputDir} to ${bucket.name}: ${result.uploaded} uploaded (${(result.bytes / 1_048_576).toFixed(1)} MB), ${result.deleted} deleted, ${plan.unchanged} unchanged in ${Math.round(performance.now() - started)} ms` +
        (purgers.length > 0 ? `; ${requests} purge request(s) to ${purgers.map((p) => p.name).join(', ')}` : '') +
        '.\n',
    );
  }
} catch (error) {
  process.stderr.write(`Deploy stopped: ${describeError(error)}\nWhat was uploaded before is recorded; run it again to go on.\n`);
  process.exitCode = 1;
} finally {
  await db.destroy();
}

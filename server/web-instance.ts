/**
 * A web instance (`PRESSROOM_ROLE=web`, issue 38): answers both APIs, the
 * dashboard and the output beside the server that builds, on the same
 * Postgres database and output folder. It builds nothing, runs no job,
 * watches no `content/` and holds no lock, so any number may run, started
 * and killed in any order.
 *
 * - Writes go to the database as on the server (one transaction each, with
 *   their jobs: the server and `npm run worker` run them); bodies and
 *   uploads are processed on this instance's threads; uploads are stored
 *   in the shared data folder, or the bucket.
 * - Reads are the shared output folder's files and the server's public
 *   state, followed from the database's state feed
 *   (`public-api/state-follower.ts`): each build's paths are dropped from
 *   this instance's file caches as its state is applied.
 * - A write that waits for its build (`settleWrite`) waits until this
 *   instance has the build's state and readers get it.
 * - Rate limits are counted in the database, with every other instance's.
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from './app.ts';
import { createBodyPool } from './bodies/body-pool.ts';
import { createThreadedRulePolicy } from './bodies/threaded-moderation.ts';
import { loadCursorCodec } from './bootstrap.ts';
import { systemClock, type Clock } from './clock.ts';
import { ConfigError, type Config } from './config.ts';
import { describeError } from './describe-error.ts';
import type { OutputWatch } from './domain/article/reported-status.ts';
import { createRulePolicy } from './domain/moderation/moderation-policy.ts';
import { s3Bucket } from './edge/bucket/s3-bucket.ts';
import { objectHeadersOf } from './edge/bucket/bucket-sync.ts';
import { createConfiguredEdge } from './edge/create-edge.ts';
import { edgeDelay } from './edge/edge-delay.ts';
import { privateAnswersDir } from './http/answer-files.ts';
import { createOutputFileCache } from './http/output-file-cache.ts';
import { createReadApi, listenServing, serverUrl } from './http/read-side.ts';
import { createThreadUploadParser } from './http/upload-parser.ts';
import { InternalError } from './internal-error.ts';
import { createLogger, type Logger } from './logger.ts';
import type { RunningService } from './main.ts';
import type { Worker } from './jobs/worker.ts';
import { createMediaKit } from './media/create-media-kit.ts';
import { openMigratedPostgres } from './migrate-logged.ts';
import { loadModerationRules } from './moderation-rules-file.ts';
import { OPENAPI_FILES, PROJECT_ROOT } from './paths.ts';
import { createPreviewer } from './publish/static-site.ts';
import { openApiJson } from './openapi-json.ts';
import { followState, type StateFollower } from './public-api/state-follower.ts';
import { PRIVATE_DIR_MODE, shownDatabase, type Db, type Executor } from './store/database.ts';
import { readSetting } from './store/instance-setting.repository.ts';
import { SEARCH_COMPLETE_SETTING } from './public-api/search-keeper.ts';
import { hasAnyFile } from './store/output-file.repository.ts';
import { staticFiles } from './serving/static-files.ts';
import { listenTo } from './store/postgres/notifications.ts';
import { hasUnbuiltEvent, hasUnprocessedEventThrough, lastEventId } from './store/publication-event.repository.ts';
import { STATE_FEED_CHANNEL } from './store/state-feed.repository.ts';
import { createPublicUrls } from './urls/public-urls.ts';

/** How often a waiting write looks whether its build reached readers. */
const SETTLE_POLL_MS = 25;

/**
 * A write's wait for its build, here: the server's build in this instance's state, then readers given it;
 * with an edge (`edgeTargets`), what holds changes back there, as the server says it.
 */
function followedOutput(db: Db, follower: StateFollower, clock: Clock, edgeTargets: readonly string[] | null): OutputWatch {
  return {
    ...(edgeTargets ? { edgeDelay: (executor: Executor) => edgeDelay(executor, edgeTargets, clock) } : {}),
    async settle(ms) {
      const deadline = Date.now() + ms;
      const target = await lastEventId(db);
      while (Date.now() < deadline) {
        await follower.catchUp();
        if (follower.through() >= target && !(await hasUnprocessedEventThrough(db, target))) return;
        await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
      }
    },
  };
}

/**
 * The read API's search index: the server keeps it; this instance asks whether it is complete (every second,
 * and with each state it follows) until it is.
 */
function searchWatch(db: Db): { ready: () => boolean; version: () => number; refresh: () => Promise<void>; stop: () => void } {
  let complete = false;
  let version = 0;
  const refresh = async () => {
    if (!complete) complete = (await readSetting(db, SEARCH_COMPLETE_SETTING).catch(() => undefined)) === '1';
    if (complete) clearInterval(timer);
  };
  const timer = setInterval(() => void refresh(), 1_000);
  timer.unref();
  return {
    ready: () => complete,
    // Every search asks the index again: the server syncs it after its builds, and nothing tells this instance when.
    version: () => ++version,
    refresh,
    stop: () => clearInterval(timer),
  };
}

/** How often a web instance waiting for the server's first public state says so. */
const WAITING_LOG_MS = 10_000;

/** Resolves once the follower holds a state, logging every `WAITING_LOG_MS` while it waits. */
async function waitForFirstState(follower: StateFollower, log: Logger): Promise<void> {
  if (follower.heldState()) return;
  const say = () => log.warn('waiting for the public state of the server that builds (the database\'s state feed) before listening: start that server (npm start, PRESSROOM_ROLE=server) on this database');
  await follower.catchUp();
  if (follower.heldState()) return;
  say();
  const timer = setInterval(say, WAITING_LOG_MS);
  try {
    await follower.state();
  } finally {
    clearInterval(timer);
  }
}

/** Starts a web instance on `config.host:config.port`. */
export async function startWebInstance(config: Config, options: { clock?: Clock; log?: Logger } = {}): Promise<RunningService> {
  if (!config.databaseUrl) throw new InternalError('INVARIANT_BROKEN', 'PRESSROOM_ROLE=web needs PRESSROOM_DATABASE_URL: the SQLite file has one server.');
  const log = options.log ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  fs.mkdirSync(config.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const db = await openMigratedPostgres(config.databaseUrl, log);
  // The server's output folder, shared: a web instance on a folder of its own would answer 404 for every page.
  if (config.staticBuild && (await hasAnyFile(db)) && !fs.existsSync(path.join(config.outputDir, staticFiles.home()))) {
    await db.destroy();
    throw new ConfigError([
      `PRESSROOM_OUTPUT_DIR: a web instance serves the output folder of the server that builds, and ${config.outputDir} holds no site although that server built one; give it the server's folder (the same machine, or a shared volume: docs/DEPLOYING.md, "Several machines") (got "${config.outputDir}")`,
    ]);
  }
  const rules = loadModerationRules(config.moderationFile);
  const urls = createPublicUrls(config.publicUrl, config.dashboardUrl);
  const cursors = await loadCursorCodec(db);
  const mediaBucket = config.deployBucket ? s3Bucket(config.deployBucket) : null;
  const media = createMediaKit(
    config,
    mediaBucket ? { bucket: mediaBucket, headersOf: (file) => objectHeadersOf(file, config.cacheMaxAgeSeconds, config.cacheTagPrefix), log: log.child('media') } : undefined,
  );
  const bodies = config.bodyWorkers > 0 ? createBodyPool({ threads: config.bodyWorkers, timeLimitMs: config.bodyTimeLimitMs, lazy: true, queuedPerOwner: config.bodyQueuePerAccount }) : null;
  const policy = bodies ? createThreadedRulePolicy(rules, bodies) : createRulePolicy(rules);
  // What a start that fails half-way closes, so nothing it opened keeps the process alive.
  const opened: Array<() => unknown> = [() => db.destroy(), () => bodies?.close()];
  try {
    const outputFiles = config.staticBuild ? createOutputFileCache(config.outputDir) : null;
    const search = searchWatch(db);
    opened.push(() => search.stop());
    let readApi: ReturnType<typeof createReadApi> | null = null;
    const follower = followState({
      db,
      log: log.child('state'),
      async onPaths(paths) {
        outputFiles?.invalidate(paths);
        readApi?.invalidate(paths);
        await search.refresh();
      },
    });
    opened.push(() => follower.close());
    const listening = listenTo(config.databaseUrl, STATE_FEED_CHANNEL, () => follower.poke(), (error) => log.child('state').warn('state feed notifications lost: looking every second until they are back', { error: describeError(error) }));
    opened.push(() => listening.close());
    await search.refresh();
    // The include=html answers kept on disk are this process's own (the server empties and fills the data
    // folder's at its start, and each process knows only its own files): a private folder, removed at stop
    // (and by the next web instance on this machine, should this one be killed).
    const answersDir = privateAnswersDir(os.tmpdir());
    opened.push(() => fs.rmSync(answersDir, { recursive: true, force: true }));
    const readConfig = Object.freeze({ ...config, answerCacheDir: answersDir });
    readApi = outputFiles ? createReadApi({ db, urls, cursors, config: readConfig, files: outputFiles, log, state: () => follower.state(), heldState: () => follower.heldState(), search }) : null;
    // The dashboard's preview renders here, with renderers of its own, over the followed state.
    const preview = config.staticBuild ? await createPreviewer({ db, clock, urls, cursors, config, projectRoot: PROJECT_ROOT, log: log.child('preview'), state: () => follower.state(), pending: () => hasUnbuiltEvent(db) }) : null;
    const uploadParser = createThreadUploadParser();
    opened.push(() => uploadParser.close());
    // Jobs are the server's and the workers': this instance's runner never starts; the queue's own notification wakes theirs when a write's transaction commits.
    const idle: Worker = { start: () => undefined, wake: () => undefined, runDue: async () => 0, recover: async () => 0, stop: async () => undefined };
    const app = createApp(config, {
      db,
      clock,
      urls,
      cursors,
      log,
      publishingOpenApi: () => openApiJson(OPENAPI_FILES.publishing),
      jobs: idle,
      moderation: policy,
      media,
      ...(bodies ? { bodies } : {}),
      uploadParser,
      ...(readApi ? { publicApi: readApi.deps } : {}),
      ...(outputFiles ? { outputFiles, output: followedOutput(db, follower, clock, createConfiguredEdge(config, { db, clock, log: log.child('edge') })?.targets ?? null) } : {}),
      ...(preview ? { preview } : {}),
    });
    // Answers made on demand need the server's public state: until its first one is in the feed (a server that has
    // not started yet), this instance waits without listening, as a standby does, and says why.
    if (readApi) await waitForFirstState(follower, log.child('state'));
    const server = await listenServing(config, app, outputFiles, readApi, log);
    bodies?.warm();
    log.info('web instance listening: answering beside the server that builds', { database: shownDatabase(config.database), output: config.outputDir });
    return {
      url: serverUrl(server, config),
      db,
      newDevKey: null,
      devKeyFile: '',
      localSignIn: { newPassword: null, passwordFile: '', canSignIn: false },
      worker: idle,
      cursors,
      staticSite: null,
      searchIndex: null,
      edge: null,
      async stop() {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await listening.close();
        search.stop();
        await follower.close();
        await bodies?.close();
        await uploadParser.close();
        await db.destroy();
        fs.rmSync(answersDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    for (const close of opened.reverse()) await Promise.resolve().then(close).catch(() => undefined);
    throw error;
  }
}

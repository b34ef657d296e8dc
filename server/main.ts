/**
 * The write service's runtime: opens and migrates the database, runs first-run
 * set-up, imports content/, and listens. `stop()` closes everything.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { staticFiles } from './serving/static-files.ts';
import { createApp } from './app.ts';
import { createBodyPool } from './bodies/body-pool.ts';
import { createThreadUploadParser } from './http/upload-parser.ts';
import { createThreadedRulePolicy } from './bodies/threaded-moderation.ts';
import { ensureLocalAccount, loadCursorCodec, refreshBodyRenderings } from './bootstrap.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { importContent } from './content/import-content.ts';
import { watchContent } from './content/watch-content.ts';
import { createLogger, type Logger } from './logger.ts';
import { createRulePolicy } from './domain/moderation/moderation-policy.ts';
import { createJobHandlers } from './jobs/handlers.ts';
import { createWorker, type Worker } from './jobs/worker.ts';
import { createPostgresWorker } from './jobs/postgres-worker.ts';
import type { CursorCodec } from './domain/cursor.ts';
import { removeStaleTempFilesInThread } from './output/stale-temp-sweep.ts';
import { createStaticSite, type StaticSite } from './publish/static-site.ts';
import type { BootingBuildThread } from './publish/build-thread-boot.ts';
import { keepHostFiles } from './hosting/host-files.ts';
import { createPublicModel } from './read-model/public-model.ts';
import { createSearchKeeper, type SearchKeeper } from './public-api/search-keeper.ts';
import { startWebInstance } from './web-instance.ts';
import { createReadApi, listenServing, serverUrl, type ReadApi } from './http/read-side.ts';
import { createOutputFileCache, type OutputFileCache } from './http/output-file-cache.ts';
import type { PublicUrls } from './urls/public-urls.ts';
import { scheduleMediaCleanup } from './domain/media/cleanup.ts';
import { loadModerationRules } from './moderation-rules-file.ts';
import { holdInstanceLock, openDatabase, PRIVATE_DIR_MODE, refuseWrites, shownDatabase, storeKind, type Db, type InstanceLock } from './store/database.ts';
import { migrateLogged } from './migrate-logged.ts';
import { recordDatabaseFiles } from './store/database-files.ts';
import { guardDatabase, unguardedDatabase } from './database-guard.ts';
import { hasAnyFile } from './store/output-file.repository.ts';
import { createPublicUrls } from './urls/public-urls.ts';
import { createMediaKit } from './media/create-media-kit.ts';
import { s3Bucket } from './edge/bucket/s3-bucket.ts';
import { objectHeadersOf } from './edge/bucket/bucket-sync.ts';
import { listAllMediaFiles } from './store/media.repository.ts';
import { OPENAPI_FILES, PROJECT_ROOT } from './paths.ts';
import { openApiJson } from './openapi-json.ts';
import { describeError } from './describe-error.ts';
import type { EdgeDelivery } from './edge/edge-delivery.ts';
import { createConfiguredEdge } from './edge/create-edge.ts';
import { watchEventLoop } from './event-loop-watch.ts';
import { edgeDelay } from './edge/edge-delay.ts';
import type { OutputWatch } from './domain/article/reported-status.ts';

/** Reads an OpenAPI document from docs/. */
/** A running service. */
export interface RunningService {
  readonly url: string;
  readonly db: Db;
  /** Present on the first run only: the development key, to print once. */
  readonly newDevKey: string | null;
  readonly devKeyFile: string;
  /** The local account's sign-in to the dashboard: its password on the first run only, the file it was saved to, whether it has one. */
  readonly localSignIn: { readonly newPassword: string | null; readonly passwordFile: string; readonly canSignIn: boolean };
  /** The job worker (moderation, schedules). */
  readonly worker: Worker;
  /** Signs list cursors; the static lists and the public API share it. */
  readonly cursors: CursorCodec;
  /** The static output's builder and queue; null when PRESSROOM_STATIC_BUILD is false. */
  readonly staticSite: StaticSite | null;
  /** The read API's full-text index; null when PRESSROOM_STATIC_BUILD is false. */
  readonly searchIndex: SearchKeeper | null;
  /** The CDNs each build is purged from; null when none is configured. */
  readonly edge: EdgeDelivery | null;
  stop(): Promise<void>;
}

/**
 * What a write waits for and how the publishing API learns of the edge:
 * the build, then (with an edge) the purge that makes it readable there.
 */
function outputWatch(staticSite: StaticSite, edge: EdgeDelivery | null, clock: Clock): OutputWatch {
  if (!edge) return { settle: (ms) => staticSite.queue.settle(ms) };
  return {
    async settle(ms) {
      const deadline = Date.now() + ms;
      await staticSite.queue.settle(ms);
      await edge.settle(Math.max(0, deadline - Date.now()));
    },
    edgeDelay: (db) => edgeDelay(db, edge.targets, clock),
  };
}

/**
 * Starts the service on `config.host:config.port` (port 0 picks a free port).
 * @param options.clock injectable for tests.
 * @param options.startWorker false to leave jobs to `worker.runDue()` (tests).
 * @param options.syncSearchIndex false to leave the search index's first sync to `searchIndex.syncAll()` (tests of the 503).
 * @param options.buildThread the build thread, started before this module loaded (`npm start`): its sources load meanwhile.
 */
export async function startService(
  config: Config,
  options: { clock?: Clock; log?: Logger; startWorker?: boolean; syncSearchIndex?: boolean; buildThread?: BootingBuildThread; onInstanceLockLost?: () => void } = {},
): Promise<RunningService> {
  const log = options.log ?? createLogger(config.logLevel);
  // A web instance answers beside the server that builds: no lock, builds, jobs or content/ (issue 38).
  if (config.role === 'web') {
    void options.buildThread?.worker.terminate();
    return startWebInstance(config, { ...options, log });
  }
  const databaseLog = log.child('database');
  // Until the parts that write exist, a lost lock is remembered; they stop as soon as they exist.
  const lockLost: { handle: (reason: string) => Promise<void>; early?: string } = {
    handle: async (reason) => void (lockLost.early ??= reason),
  };
  // One server per Postgres database, for now: a second one is refused here, before it touches anything, or,
  // as a standby, waits here until the one that holds the database stops or dies.
  const instanceLock = config.databaseUrl
    ? await holdInstanceLock(config.databaseUrl, (reason) => void lockLost.handle(reason), {
        ...(config.standby ? { standby: (holder: string) => databaseLog.warn('standby: another server holds the database; this one takes over when it stops or dies', { holder }) } : {}),
      })
    : null;
  if (instanceLock && config.standby) databaseLog.info('holding the database: starting');
  // What a start that fails half-way closes, so nothing it opened keeps the process alive.
  const onFailure: Array<() => Promise<void>> = [];
  try {
    return await startHolding(config, { ...options, log }, instanceLock, lockLost, onFailure);
  } catch (error) {
    for (const close of onFailure.reverse()) await close().catch(() => undefined);
    await instanceLock?.release();
    throw error;
  }
}

/** How long a server that lost its lock waits for its jobs and builds to stop before it goes anyway. */
const LOCK_LOST_STOP_MS = 10_000;

/** What a server says when the connection holding its lock on a Postgres database ended. */
const INSTANCE_LOCK_LOST = 'lost the connection that holds this server\'s lock on the database: a standby may take over now, so this server stops its jobs, builds and content watcher; restart it';

async function startHolding(
  config: Config,
  options: { clock?: Clock; log: Logger; startWorker?: boolean; syncSearchIndex?: boolean; buildThread?: BootingBuildThread; onInstanceLockLost?: () => void },
  instanceLock: InstanceLock | null,
  lockLost: { handle: (reason: string) => Promise<void>; early?: string },
  onFailure: Array<() => Promise<void>>,
): Promise<RunningService> {
  const clock = options.clock ?? systemClock;
  const log = options.log;
  const rules = loadModerationRules(config.moderationFile);
  // The data folder holds more than a SQLite file (the development key, media, cards): made private whatever the store.
  fs.mkdirSync(config.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const db = openDatabase(config.database);
  // Set once the parts that write exist; called when the database's files are found detached (issue 39).
  let stopWriting = async (): Promise<void> => undefined;
  // A SQLite file can be detached under the server (issue 39); a Postgres server keeps its own files.
  const guard = config.databaseUrl
    ? unguardedDatabase()
    : guardDatabase({
        files: recordDatabaseFiles(config.databaseFile),
        log: log.child('database'),
        now: () => new Date(),
        onDetached: async () => {
          await refuseWrites(db);
          await stopWriting();
        },
      });
  const applied = await migrateLogged(db, shownDatabase(config.database), log);
  if (applied.length > 0) log.info('database migrated', { file: shownDatabase(config.database), applied: applied.join(',') });
  // Bodies an older renderer made are rendered again, on every core, before anything reads them.
  await refreshBodyRenderings(db, log.child('bodies'), { threads: config.buildWorkers, timeLimitMs: config.bodyTimeLimitMs });
  const local = await ensureLocalAccount({ db, clock }, config.dataDir);
  const urls = createPublicUrls(config.publicUrl, config.dashboardUrl);
  // Editors' saves to content/ are imported as they happen; the build queue picks up their events. The watcher
  // is ready before the start's import reads the folder, so a save made while the server starts is not missed.
  const contentWatcher =
    config.importContent && config.watchContent ? watchContent({ db, clock, log: log.child('content') }, config.contentDir, local.accountId) : null;
  if (contentWatcher) onFailure.push(() => contentWatcher.close());
  if (config.importContent) {
    await contentWatcher?.ready();
    const report = contentWatcher
      ? await contentWatcher.importNow()
      : await importContent({ db, clock, log: log.child('content') }, config.contentDir, local.accountId);
    log.info('content imported', { dir: config.contentDir, ...report.counts });
  }
  // With a bucket, every upload is stored in it too, and a start fetches what its data folder lacks (issue 38).
  const mediaBucket = config.deployBucket ? s3Bucket(config.deployBucket) : null;
  const media = createMediaKit(
    config,
    mediaBucket ? { bucket: mediaBucket, headersOf: (file) => objectHeadersOf(file, config.cacheMaxAgeSeconds, config.cacheTagPrefix), log: log.child('media') } : undefined,
  );
  if (media.storage.restore) {
    const fetched = await media.storage.restore(await listAllMediaFiles(db));
    if (fetched.restored > 0) log.info('media fetched from the bucket into the data folder', { dir: media.storage.root, files: fetched.restored });
    if (fetched.missing.length > 0) log.error('media files neither in the data folder nor in the bucket: their images answer 404 until they are restored (a restart fetches them again)', { files: fetched.missing.length, example: fetched.missing[0], ...(fetched.failure ? { bucket_error: fetched.failure } : {}) });
  }
  // Uploaded images live in the data folder; the output's media/ is made equal to it (after a deleted dist/, say).
  const mediaCopy = await media.storage.publishAll();
  if (mediaCopy.adopted > 0) log.info('media moved into the data folder', { dir: media.storage.root, files: mediaCopy.adopted });
  if (mediaCopy.placed + mediaCopy.removed > 0) log.info('media copied into the output folder', { placed: mediaCopy.placed, removed: mediaCopy.removed });
  // Saved bodies are parsed and rendered on threads of their own, under a time limit (issue 18).
  // Its threads start once the server listens (or at the first body), so booting them does not delay the first answer.
  const bodies = config.bodyWorkers > 0 ? createBodyPool({ threads: config.bodyWorkers, timeLimitMs: config.bodyTimeLimitMs, lazy: true, queuedPerOwner: config.bodyQueuePerAccount }) : null;
  // The moderation job judges submissions on the same threads, under the same limit; requests judge short texts in place.
  const policy = bodies ? createThreadedRulePolicy(rules, bodies) : createRulePolicy(rules);
  // Set once the static side exists: jobs that change what is public ask for a build at once.
  let kickBuild = (): void => undefined;
  let buildNow = async (): Promise<void> => undefined;
  // The durable queue: the `jobs` table and its worker on SQLite, graphile-worker's queue on Postgres.
  const handlers = createJobHandlers({ db, clock, policy, log: log.child('jobs'), media, afterPublicChange: () => kickBuild(), build: () => buildNow() });
  const worker = storeKind(db) === 'postgres' ? createPostgresWorker({ db, clock, log: log.child('jobs') }, handlers) : createWorker({ db, clock, log: log.child('jobs') }, handlers);
  // Hourly from now on; the job re-enqueues itself, so only the first run is queued here.
  await scheduleMediaCleanup(db, clock);
  const cursors = await loadCursorCodec(db);
  // The static output: a full build when none exists yet, otherwise the events a crash left unbuilt.
  // The CDNs each build is purged from (PRESSROOM_PURGE_*): with any, `published` means readable there.
  const edge = config.staticBuild ? createConfiguredEdge(config, { db, clock, log: log.child('edge') }) : null;
  const staticSite = config.staticBuild
    ? await createStaticSite({ db, clock, urls, cursors, config, projectRoot: PROJECT_ROOT, log: log.child('build'), builderThread: true, ...(options.buildThread ? { bootedBuildThread: options.buildThread } : {}), ...(edge ? { edge } : {}) })
    : null;
  if (!staticSite) void options.buildThread?.worker.terminate();
  // The host's own files (PRESSROOM_STATIC_HOST) follow every build; wired here, so the builder knows no host.
  const hostFiles = staticSite ? keepHostFiles(staticSite.builder, config.staticHost, config.outputDir, log.child('build'), config.cacheTagPrefix) : null;
  // How long readers' requests waited behind the builder on this thread, logged per period with builds.
  const loopWatch = watchEventLoop(log.child('loop'), config.eventLoopReportSeconds);
  if (staticSite) {
    const first = !(await hasAnyFile(db));
    // An output folder deleted (or emptied) while the server was stopped is rebuilt before anything is served.
    const lost = !first && !fs.existsSync(path.join(config.outputDir, staticFiles.home()));
    if (lost) log.warn('the output folder has no site (deleted or emptied while stopped): rebuilding it from the store', { dir: config.outputDir });
    // Events a crash left unbuilt are built before anything is served. With none, the output is as recorded and
    // the server listens at once: the build thread may still be loading its sources (a second or more), and
    // only answers made from the public state wait for it, not files or search.
    const unbuilt = first || lost || (await staticSite.builder.hasUnbuiltEvents());
    const built = (first || lost ? staticSite.builder.fullBuild() : staticSite.builder.applyEvents()).then((report) => {
      log.info(first ? 'static site built' : lost ? 'static site rebuilt' : 'static site up to date', { dir: config.outputDir, written: report.written, removed: report.removed, ms: report.ms });
      return report;
    });
    if (unbuilt) await built;
    else built.catch((error: unknown) => log.error('static site not brought up to date', { error: describeError(error) }));
    // Then, while serving, the folder is compared with the manifest file by file (size and mtime, a hash where
    // they changed): files missing, edited or left by a crash are repaired by a full build.
    if (!first && !lost) {
      // The read API's search and lists answer from the public state; the builder's queue runs in order, so
      // it is loaded first and they do not wait behind the check (8 s at 10,000 × 2 before issue 36).
      void staticSite.builder.publicState().catch((error: unknown) => log.error('public state not loaded', { error: describeError(error) }));
      void staticSite.builder.repairOutput().then(
        (repaired) => {
          if (!repaired) return log.info('output folder checked: as recorded', { dir: config.outputDir });
          const { check, report: build } = repaired;
          log.warn('output folder repaired: files were missing, changed or unrecorded', { missing: check.missing.length - check.damaged.length, changed: check.damaged.length, unrecorded: check.unrecorded.length, written: build.written, removed: build.removed, ms: build.ms, example: check.damaged[0] ?? check.missing[0] ?? check.unrecorded[0] });
        },
        (error: unknown) => log.error('output folder check failed', { error: describeError(error) }),
      );
    }
    await hostFiles?.ensure();
    // The search shards build in the background; pages work without them meanwhile.
    if (first || !staticSite.search.hasIndex()) staticSite.search.rebuildAll();
    else void built.then((report) => staticSite.search.rebuildFor(report), () => {});
    staticSite.queue.start(100);
    staticSite.queue.onBuilt(() => loopWatch.built());
    kickBuild = () => staticSite.queue.kick();
    buildNow = async () => {
      staticSite.queue.kick();
      await staticSite.queue.idle();
    };
    // Deliveries a crash or an outage left pending go out now; another process's builds are found by polling.
    // A rebuilt search index changes files no build reports: the bucket compares them again.
    staticSite.search.onIndexed((change) => edge?.refresh(change));
    edge?.deferSearchWhile(() => staticSite.search.busy());
    edge?.start(500);
    edge?.refresh();
  }
  const outputFiles = staticSite ? createOutputFileCache(config.outputDir) : null;
  // What a build writes or deletes is served fresh at once: before the build is recorded as shown, so the
  // publishing API never reports a change the cache would still hide (docs/LIFECYCLE.md, "Read your writes").
  if (staticSite && outputFiles) staticSite.builder.onFilesPlaced((paths) => outputFiles.invalidate(paths));
  const publicApi = staticSite && outputFiles ? await createPublicReadSide({ db, urls, cursors, config, staticSite, files: outputFiles, log }) : null;
  // Uploads are parsed on a thread of their own, started by the first one (http/upload-parser.ts).
  const uploadParser = createThreadUploadParser();
  const app = createApp(config, {
    db,
    clock,
    urls,
    cursors,
    log,
    publishingOpenApi: () => openApiJson(OPENAPI_FILES.publishing),
    jobs: worker,
    moderation: policy,
    media,
    ...(bodies ? { bodies } : {}),
    uploadParser,
    ...(publicApi ? { publicApi: publicApi.deps } : {}),
    ...(outputFiles ? { outputFiles } : {}),
    ...(staticSite ? { output: outputWatch(staticSite, edge, clock), preview: staticSite.preview } : {}),
    database: guard,
  });
  // Jobs left by a previous run (a crash, or schedules that came due while down) run now.
  await worker.recover();
  if (options.startWorker !== false) worker.start();
  stopWriting = async () => {
    await contentWatcher?.close();
    await worker.stop();
    await staticSite?.queue.stop();
    await edge?.stop();
  };
  // Found before these existed: stop them now.
  if (guard.state()) await stopWriting();
  // A lost lock on a Postgres database: a standby may be writing and building already. This server stops its
  // writers, then `npm start` exits (`onInstanceLockLost`), as a crash would: whoever holds the lock repairs.
  lockLost.handle = async (reason) => {
    log.child('database').error(INSTANCE_LOCK_LOST, { reason });
    // Bounded: a job or build that does not stop must not keep a server without its lock alive.
    let late: NodeJS.Timeout | undefined;
    await Promise.race([
      stopWriting().catch((error: unknown) => log.error('stopping the writers failed', { error: describeError(error) })),
      new Promise<void>((resolve) => (late = setTimeout(resolve, LOCK_LOST_STOP_MS))),
    ]);
    clearTimeout(late);
    options.onInstanceLockLost?.();
  };
  if (lockLost.early !== undefined) await lockLost.handle(lockLost.early);
  const server = await listenServing(config, app, outputFiles, publicApi, log);
  // Work that can wait until the server answers: the read API's search index catches up with the public
  // state (its first sync reads every public article), and the body threads boot.
  if (publicApi && options.syncSearchIndex !== false) void publicApi.search.syncAll();
  // Temporary files a killed build or upload left behind are never served (`TEMP_FILE_NAME`); they go now,
  // swept on a thread of their own (160,000 files at 10,000 × 2).
  // Uploads' temporaries too: a killed upload leaves one in data/uploads (http/multipart-upload.ts).
  const housekeeping = removeStaleTempFilesInThread([config.outputDir, media.storage.root, path.join(config.dataDir, 'uploads')]).then((results) => {
    for (const { dir, removed, error } of results) {
      if (error) log.warn('stale temporary files not removed', { dir, error });
      else if (removed && removed.length > 0) log.info('stale temporary files removed', { dir, count: removed.length });
    }
  });
  bodies?.warm();
  return {
    url: serverUrl(server, config),
    db,
    newDevKey: local.newKey,
    devKeyFile: local.keyFile,
    localSignIn: { newPassword: local.newPassword, passwordFile: local.passwordFile, canSignIn: local.canSignIn },
    worker,
    cursors,
    staticSite,
    edge,
    searchIndex: publicApi?.search ?? null,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await housekeeping;
      await contentWatcher?.close();
      await worker.stop();
      await staticSite?.queue.stop();
      await edge?.stop();
      await staticSite?.close();
      await publicApi?.search.idle();
      await bodies?.close();
      await uploadParser.close();
      loopWatch.stop();
      guard.stop();
      if (guard.state()) {
        // Closing would checkpoint the detached WAL over what other processes wrote since; the process exits
        // without closing (process.exit closes no SQLite connection), so the database file stays as they left it.
        log.child('database').error('database connection left open on stop: its files were detached, so it must not checkpoint', { file: config.databaseFile });
        return;
      }
      await db.destroy();
      await instanceLock?.release();
    },
  };
}

/**
 * The read side of the public content API: the builder's public state, a
 * model for full articles, and the full-text index, kept in step by the same
 * build reports as the output. The caller starts the first sync (in the
 * background); search answers 503 until one has finished.
 */
async function createPublicReadSide(deps: {
  db: Db;
  urls: PublicUrls;
  cursors: CursorCodec;
  config: Config;
  staticSite: StaticSite;
  files: OutputFileCache;
  log: Logger;
}): Promise<ReadApi & { search: SearchKeeper }> {
  const { db, staticSite } = deps;
  const model = createPublicModel({ db, urls: deps.urls });
  const state = () => staticSite.builder.publicState();
  const search = await createSearchKeeper({ db, state, loadTexts: (ids) => model.texts({ ids }), lastEventId: () => staticSite.builder.newestEvent(), log: deps.log.child('search') });
  staticSite.queue.onBuilt((report) => void (report.full ? search.syncAll() : search.syncArticles(report.articleIds, report.through)));
  const readApi = createReadApi({ ...deps, state, heldState: () => staticSite.builder.heldState(), search });
  staticSite.builder.onFilesPlaced((paths) => readApi.invalidate(paths));
  return { ...readApi, search };
}

/**
 * Entry point of the build thread (`build-thread.ts`): loads its sources at
 * once (`build-thread-boot.ts`), then, told its `init` data, opens the
 * store, makes the builder (`local-builder.ts`), runs each
 * operation it is sent, one at a time, and reports with each result what
 * the public state changed (`read-model/state-delta.ts`). When a build's
 * files are in place it sends the state and the paths, and waits until the
 * request thread has taken them in before the build is recorded.
 * @module
 */
import { parentPort } from 'node:worker_threads';
import { loadCursorCodec } from '../../bootstrap.ts';
import { systemClock, type Clock } from '../../clock.ts';
import { describeError } from '../../describe-error.ts';
import { createDeltaTracker } from '../../read-model/state-delta.ts';
import { openDatabase } from '../../store/database.ts';
import { forwardingLogger } from '../../thread-log.ts';
import { lowerThisThread, loweringNote } from '../../thread-priority.ts';
import { createPublicUrls } from '../../urls/public-urls.ts';
import type { BuildRequest, BuildThreadReport, BuildWorkerData, StateNews } from '../build-thread.ts';
import type { SiteBuilder } from '../builder/site-builder.ts';
import { createLocalBuilder } from '../local-builder.ts';
import { createStateFeedWriter, feedState } from '../state-feed.ts';

// Builds trail the readers' answers: below the request thread's priority, with the writer and render threads it starts.
const lowered = lowerThisThread();
const port = parentPort!;
const report = (message: BuildThreadReport) => port.postMessage(message);
const log = forwardingLogger((line) => report({ log: line }));
// Said once, by this thread: the search thread lowers itself the same way, in the same place.
const note = loweringNote(lowered);
if (note) log.warn(note);

/** The builder made from `init`'s data, and how each operation runs on it. */
async function boot(data: BuildWorkerData): Promise<{ run: (request: { op: string; now: string }) => Promise<{ result: unknown; state: StateNews }>; close: () => Promise<void> }> {
  const { config } = data;
  // A test's manual clock stands still between operations: the thread reads the time the last one brought.
  let sentTime = new Date();
  const clock: Clock = data.realClock ? systemClock : { now: () => new Date(sentTime) };
  const db = openDatabase(config.database, { thread: true });
  const urls = createPublicUrls(config.publicUrl, config.dashboardUrl);
  const local = await createLocalBuilder({
    db,
    clock,
    urls,
    cursors: await loadCursorCodec(db),
    config,
    projectRoot: data.projectRoot,
    astroBuildDir: data.astroBuildDir,
    log,
    ...(data.edge ? { edge: { kick: () => report({ edgeKick: true }) } } : {}),
  });
  // On Postgres the service's builder feeds its public state to web instances that do not build (issue 38).
  const builder: SiteBuilder = config.databaseUrl ? feedState(local.builder, createStateFeedWriter({ db, clock, log })) : local.builder;
  const tracker = createDeltaTracker();
  /** What the state changed since it was last sent. */
  const news = (): StateNews => {
    const held = builder.heldState();
    if (held) return tracker.take(held);
    tracker.reset();
    return 'forget';
  };
  builder.onFilesPlaced(async (paths) => {
    const seq = ++placedSeq;
    const taken = new Promise<void>((resolve) => acks.set(seq, resolve));
    report({ placed: seq, paths: [...paths], state: news() });
    await taken;
  });
  const operations: Record<string, () => Promise<unknown>> = {
    fullBuild: () => builder.fullBuild(),
    repairOutput: () => builder.repairOutput(),
    applyEvents: () => builder.applyEvents(),
    publicState: async () => void (await builder.publicState()),
    release: () => builder.release(),
  };
  return {
    async run(request) {
      sentTime = new Date(request.now);
      const started = performance.now();
      const result = await operations[request.op]!();
      const ran = performance.now();
      const state = news();
      if (request.op === 'publicState') log.debug('public state loaded', { ms: Math.round(ran - started), deltaMs: Math.round(performance.now() - ran) });
      return { result, state };
    },
    async close() {
      await local.close().catch((error: unknown) => log.error('stopping the builder failed', { error: describeError(error) }));
      await db.destroy();
    },
  };
}

let placedSeq = 0;
const acks = new Map<number, () => void>();
// Everything runs in the order sent, one at a time, after the builder is made (the builder's own queue orders
// its builds too; this keeps the replies in order, and no state is sent while an operation is under way).
let booted: ReturnType<typeof boot> | null = null;
let chain: Promise<void> = Promise.resolve();
port.on('message', (request: BuildRequest) => {
  if ('placedAck' in request) {
    acks.get(request.placedAck)?.();
    acks.delete(request.placedAck);
    return;
  }
  if ('init' in request) {
    booted = boot(request.init);
    chain = booted.then(
      () => report({ ready: true }),
      (error: unknown) => report({ bootError: describeError(error, { stack: true }) }),
    );
    return;
  }
  const started = booted;
  if (!started) return report({ bootError: 'The build thread was sent an operation before its init message.' });
  if ('close' in request) {
    chain = chain
      .then(async () => (await started).close())
      .catch((error: unknown) => log.error('stopping the build thread failed', { error: describeError(error) }))
      .finally(() => report({ closed: true }));
    return;
  }
  chain = chain.then(async () => {
    try {
      const { result, state } = await (await started).run(request);
      report({ done: request.call, result, state });
    } catch (error) {
      report({ failed: request.call, error: describeError(error, { stack: true }) });
    }
  });
});

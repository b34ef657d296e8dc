/**
 * What a server and a web instance (`server/web-instance.ts`) both put in front of
 * the output: the read API's dependencies over a public state, and the
 * HTTP server with its fast path for files and kept answers. The caller
 * says where the state comes from (the builder's, or the state feed's
 * mirror) and which search index answers.
 * @module
 */
import http from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Config } from '../config.ts';
import type { CursorCodec } from '../domain/cursor.ts';
import { describeError } from '../describe-error.ts';
import { createAnswerFiles } from './answer-files.ts';
import { answerClientError } from './client-error.ts';
import { sharedRateLimitStore } from './middleware/shared-rate-limit-store.ts';
import type { OutputFileCache } from './output-file-cache.ts';
import { readAnswerBody, type PublicApiDeps } from './routes/public-api.ts';
import { createStaticFastPath } from './static-fast-path.ts';
import type { Logger } from '../logger.ts';
import { openApiJson } from '../openapi-json.ts';
import { OPENAPI_FILES } from '../paths.ts';
import { ANSWER_CACHE_CHARS, createAnswerCache } from '../public-api/answer-cache.ts';
import type { ReadAnswer } from '../public-api/public-reader.ts';
import { createPublicModel } from '../read-model/public-model.ts';
import type { PublicState } from '../read-model/public-state.ts';
import { storeKind, type Db } from '../store/database.ts';
import type { PublicUrls } from '../urls/public-urls.ts';

/** The read API's side of one process. */
export interface ReadApi {
  readonly deps: PublicApiDeps;
  /** What the fast path may serve: an answer kept for this key whose sources the state still holds. */
  keptAnswer(key: string): ReadAnswer | undefined;
  /** Drops what was kept of these output paths (`include=html` answers on disk). */
  invalidate(paths: readonly string[]): void;
}

/** The read API's dependencies over `state`; `search` says whether the index answers and when its answers change. */
export function createReadApi(deps: {
  db: Db;
  urls: PublicUrls;
  cursors: CursorCodec;
  config: Config;
  files: OutputFileCache;
  log: Logger;
  state: () => Promise<PublicState>;
  heldState: () => PublicState | null;
  search: { ready: () => boolean; version: () => number };
}): ReadApi {
  const { db, config } = deps;
  const model = createPublicModel({ db, urls: deps.urls });
  const answers = createAnswerCache(ANSWER_CACHE_CHARS);
  const answerFiles = createAnswerFiles({
    dir: config.answerCacheDir,
    maxBytes: config.answerCacheBytes,
    stampOf: (file) => deps.files.stamp(file),
    onWriteFailed: (error) =>
      deps.log.warn('an include=html answer could not be kept on disk: such answers are made per request while writes fail (said once a run)', { dir: config.answerCacheDir, error: describeError(error) }),
  });
  const rateLog = deps.log.child('http');
  // On Postgres every instance counts each client in the one database (issue 38): round-robin passes no limit.
  const sharedStore =
    storeKind(db) === 'postgres'
      ? (scope: string, windowMs: number) =>
          sharedRateLimitStore(db, scope, windowMs, (error) => rateLog.warn('rate limits not counted in the database: requests pass meanwhile', { error: describeError(error) }))
      : undefined;
  return {
    keptAnswer(key) {
      const now = deps.heldState();
      return now ? answers.current(key, now) : undefined;
    },
    invalidate: (paths) => answerFiles.invalidate(paths),
    deps: {
      db,
      files: deps.files,
      cache: { maxAgeSeconds: config.cacheMaxAgeSeconds, tagPrefix: config.cacheTagPrefix },
      cursors: deps.cursors,
      urls: deps.urls,
      state: deps.state,
      heldState: deps.heldState,
      loadHeads: async (ids) => (await model.heads({ ids })).map((head) => head.summary),
      loadArticle: async (id) => (await model.articles({ ids: [id] }))[0] ?? null,
      loadTranslationBody: (id, shown) => model.translationBody(id, shown),
      loadTranslationHtml: (id, shown) => model.translationHtml(id, shown),
      answers,
      answerFiles,
      searchReady: deps.search.ready,
      searchVersion: deps.search.version,
      openApi: () => openApiJson(OPENAPI_FILES.public),
      limits: { content: config.rateLimitContent, search: config.rateLimitSearch, trustProxyHops: config.trustProxyHops, ...(sharedStore ? { sharedStore } : {}) },
    },
  };
}

/**
 * Listens on `config.host:config.port`: plain static reads and kept answers
 * take the fast path (`static-fast-path.ts`) before the app.
 */
export async function listenServing(config: Config, app: Hono, outputFiles: OutputFileCache | null, readApi: ReadApi | null, log: Logger): Promise<http.Server> {
  const appListener = getRequestListener(app.fetch);
  const httpLog = log.child('http');
  const fastPath = outputFiles
    ? createStaticFastPath({
        files: outputFiles,
        policy: { maxAgeSeconds: config.cacheMaxAgeSeconds, tagPrefix: config.cacheTagPrefix },
        apiRateLimited: config.rateLimitContent > 0,
        // Answers the read API rendered on demand and kept, while current: served here without the app.
        ...(readApi
          ? {
              keptAnswer: (key: string, pathname: string) => {
                const read = readApi.keptAnswer(key);
                return read ? readAnswerBody(read, readApi.deps.cache, pathname) : undefined;
              },
              keptAnswerFile: (key: string) => readApi.deps.answerFiles.get(key),
            }
          : {}),
        // The request log line, as the app writes it; nothing is built per request when the level hides it.
        ...(config.logRequests && (config.logLevel === 'debug' || config.logLevel === 'info')
          ? { onAnswered: (method: string, path: string, status: number, ms: number) => httpLog.info('request', { method, path, status, ms: Math.round(ms * 10) / 10 }) }
          : {}),
      })
    : null;
  const server = http.createServer((req, res) => {
    if (!fastPath) return void appListener(req, res);
    fastPath(req, res).then(
      (answered) => {
        if (!answered) void appListener(req, res);
      },
      (error: unknown) => {
        // A failed read: the app answers (and logs) as it would without the fast path.
        httpLog.debug('fast path failed', { error: describeError(error) });
        void appListener(req, res);
      },
    );
  });
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  return server;
}

/** The port a listening server got (`config.port` 0 picks one) and its URL. */
export function serverUrl(server: http.Server, config: Config): string {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${port}`;
}

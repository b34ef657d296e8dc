/**
 * The composition root of the HTTP service: wiring only. Builds the Hono app
 * from the configuration and its dependencies; `main.ts` listens.
 * @module
 */
import path from 'node:path';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { except } from 'hono/combine';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { BodyProcessor } from './domain/body/index.ts';
import type { CursorCodec } from './domain/cursor.ts';
import { PressroomError } from './domain/errors.ts';
import { createErrorHandler, notFound } from './http/on-error.ts';
import { requireApiKey, type AuthEnv } from './http/middleware/auth.ts';
import { canonicalGetPath, refuseUnsafePaths } from './http/middleware/canonical-path.ts';
import { requestLog } from './http/middleware/request-log.ts';
import { jsonAnswerHeaders } from './http/middleware/json-answers.ts';
import { openApiDocument } from './http/routes/openapi-document.ts';
import { refuseWhenDatabaseDetached, type DatabaseWatch } from './http/middleware/database-detached.ts';
import { channelRoutes } from './http/routes/channels.ts';
import { mediaFileRoutes } from './http/routes/media-files.ts';
import { publicApiRoutes, type PublicApiDeps } from './http/routes/public-api.ts';
import { notFoundPageFrom, siteFileRoutes } from './http/routes/site-files.ts';
import { createOutputFileCache, type OutputFileCache } from './http/output-file-cache.ts';
import { isMediaUploadPath, mediaRoutes } from './http/routes/media.ts';
import { createThreadUploadParser, type UploadParser } from './http/upload-parser.ts';
import { createUploadReceiver } from './http/upload-receiver.ts';
import { pageRoutes } from './http/routes/pages.ts';
import { dashboardRoutes } from './http/dashboard/dashboard-routes.ts';
import { DASHBOARD_PATH } from './http/dashboard/dashboard-layout.ts';
import type { LoginThrottle } from './domain/account/login-throttle.ts';
import type { OutputWatch } from './domain/article/reported-status.ts';
import type { Logger } from './logger.ts';
import type { MediaKit } from './domain/media/media-kit.ts';
import type { Db } from './store/database.ts';
import type { PublicUrls } from './urls/public-urls.ts';
import type { ModerationPolicy } from './domain/moderation/moderation-policy.ts';
import type { ArticlePreviewer } from './publish/preview.ts';

/** A byte count for messages: "20 MB", "10 KB". */
function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Everything the app needs, created by `main.ts` or a test. */
export interface AppDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly urls: PublicUrls;
  readonly cursors: CursorCodec;
  readonly log: Logger;
  /** The publishing API's OpenAPI document as JSON text (`openapi-json.ts`), served at /api/v1/openapi.json; read at its first request. */
  readonly publishingOpenApi: () => string;
  /** The job worker, woken after writes so moderation starts at once. */
  readonly jobs: { wake(): void };
  /** The moderation policy: the worker's judge of revisions, and the request's judge of texts public at once. */
  readonly moderation: ModerationPolicy;
  /** The media folder, image processor and upload limits. */
  readonly media: MediaKit;
  /** Prepares and renders saved bodies (the body pool); in the request thread when absent. */
  readonly bodies?: BodyProcessor;
  /** Parses uploads (a worker thread in the server); when absent, a thread of this app's own. */
  readonly uploadParser?: UploadParser;
  /** The public content API's read side; absent when the static build is off. */
  readonly publicApi?: PublicApiDeps;
  /** The output folder's files as served (kept fresh by the build queue); with the static build. */
  readonly outputFiles?: OutputFileCache;
  /** The build, for statuses reported from what the output shows and writes that wait for it; with the static build. */
  readonly output?: OutputWatch;
  /** The watch on the database's files (`database-guard.ts`); the publishing API answers 503 once they are detached. */
  readonly database?: DatabaseWatch;
  /** The dashboard's sign-in throttle (tests share one); the dashboard's own when absent. */
  readonly loginThrottle?: LoginThrottle;
  /** What publishing an article would write (the dashboard's preview); with the static build. */
  readonly preview?: ArticlePreviewer;
}

/**
 * Creates the HTTP app.
 * @example const app = createApp(config, deps); serve({ fetch: app.fetch, port: config.port });
 */
export function createApp(config: Config, deps: AppDeps): Hono {
  // One spelling per address for routes and rate limits (server/urls/request-path.ts).
  const app = new Hono({ getPath: canonicalGetPath });
  const outputFiles = config.staticBuild ? (deps.outputFiles ?? createOutputFileCache(config.outputDir)) : null;
  app.onError(createErrorHandler(deps.log.child('http'), outputFiles ? notFoundPageFrom(outputFiles) : undefined));
  app.notFound(notFound);
  if (config.logRequests) app.use('*', requestLog(deps.log.child('http')));
  app.use('*', jsonAnswerHeaders());
  app.use('*', refuseUnsafePaths());

  if (!config.staticBuild) {
    app.get('/', (c) =>
      c.html(
        `<!doctype html><meta charset="utf-8"><title>Pressroom</title><h1>Pressroom</h1><p>The static build is off (PRESSROOM_STATIC_BUILD=false). The publishing API is at <a href="/api/v1/openapi.json">/api/v1</a>.</p>`,
      ),
    );
  }
  app.get('/api/v1/openapi.json', openApiDocument(deps.publishingOpenApi, config.cacheMaxAgeSeconds));

  // Stored images: public static files, no key.
  app.route('/media', mediaFileRoutes(deps.media.storage));

  const api = new Hono<AuthEnv>();
  api.use(
    '*',
    // Uploads carry their own limit, sized for one image (routes/media.ts).
    except((c) => isMediaUploadPath(c.req.path), bodyLimit({
      maxSize: config.maxBodyBytes,
      onError: () => {
        throw new PressroomError(
          'PAYLOAD_TOO_LARGE',
          `The request body is larger than ${formatBytes(config.maxBodyBytes)}, the most the service accepts. Send a smaller body, or upload images separately through /media.`,
        );
      },
    })),
  );
  // Before the key check, which writes the key's last use.
  if (deps.database) api.use('*', refuseWhenDatabaseDetached(deps.database));
  api.use('*', requireApiKey(deps));
  api.use('*', async (c, next) => {
    await next();
    if (c.req.method !== 'GET' && c.res.status < 400) deps.jobs.wake();
  });
  api.route('/channels', channelRoutes(deps));
  // One receiver of uploads (and with it one gate of uploads per account) for both paths and the dashboard's forms.
  const receiver = createUploadReceiver(deps.media.limits, { dir: path.join(config.dataDir, 'uploads'), parser: deps.uploadParser ?? createThreadUploadParser() });
  const uploads = mediaRoutes(deps, receiver);
  // New integrations use /channels; /projects is the legacy path for pages and media.
  for (const base of ['/channels/:channel/pages', '/projects/:channel/pages']) api.route(base, pageRoutes(deps));
  for (const base of ['/channels/:channel/media', '/projects/:channel/media']) api.route(base, uploads);
  app.route('/api/v1', api);
  if (deps.publicApi) app.route('/api/public/v1', publicApiRoutes(deps.publicApi));
  // The editors' dashboard: signed in with a session cookie, never with an API key.
  if (deps.database) app.use(`${DASHBOARD_PATH}/*`, refuseWhenDatabaseDetached(deps.database));
  app.route(DASHBOARD_PATH, dashboardRoutes({ ...deps, uploads: receiver, dashboardUrl: config.dashboardUrl, trustProxyHops: config.trustProxyHops, maxBodyBytes: config.maxBodyBytes }));
  // Everything else is the static output, as a static host would serve it.
  if (outputFiles) app.route('/', siteFileRoutes(outputFiles, { maxAgeSeconds: config.cacheMaxAgeSeconds, tagPrefix: config.cacheTagPrefix }));
  return app;
}

/**
 * The Cloudflare Pages worker (`dist/_worker.js`, Pages' "advanced mode"),
 * bundled by `cloudflare-config.ts` with esbuild. Pages' own rules cannot
 * read a query string, so without it `?lang=` and `?cursor=` would be
 * ignored and the default language or page 1 answered: the worst kind of
 * wrong answer. The worker maps every request onto its file with the same
 * code as the bundled server (`fileForRequest`, `resolveOutputRequest`, through
 * `edge-request.ts`, which the CloudFront Function shares),
 * fetches it from the site's assets (Pages' ETag and 304s included) and
 * sends the bundled server's headers; what no file answers is an explicit
 * 404 or 422 with the API's JSON error body.
 * @module
 */
import { contentTypeOf } from '../serving/content-types.ts';
import { decideEdgeRequest, type EdgeConstants } from '../serving/edge-request.ts';
import { isApiPath, notFoundPageFiles, wantsNotFoundPage } from '../serving/not-found-page.ts';
import { HTML_SECURITY_HEADERS } from '../serving/security-headers.ts';
import { ERROR_CACHE_CONTROL } from '../serving/cache-policy.ts';
import { cacheTagHeaders, tagsOfFile } from '../serving/cache-tags.ts';

/** Values fixed when the worker is generated (`define`), so the worker bundles no validation library. */
declare const PRESSROOM: EdgeConstants & {
  readonly notFound: string;
  readonly shortCache: string;
  readonly immutableCache: string;
  readonly tagPrefix: string;
  /** The deploy prefix of the bucket's keys (`PRESSROOM_DEPLOY_S3_PREFIX`), for a Worker in front of R2. */
  readonly bucketPrefix: string;
};

/** The parts of an R2 bucket binding the worker uses (`@cloudflare/workers-types`' R2Bucket, narrowed). */
interface R2Like {
  get(key: string, options?: { onlyIf?: Headers }): Promise<R2ObjectLike | null>;
}
interface R2ObjectLike {
  readonly httpEtag: string;
  readonly uploaded: Date;
  readonly body?: ReadableStream | null;
  writeHttpMetadata(headers: Headers): void;
}

/**
 * Pages gives the worker its assets (`ASSETS`); a Worker in front of an R2 bucket that `npm run deploy` or the
 * service fills (docs/HOSTING.md, "CDN and object storage") gives it the bucket (`BUCKET`). The same mapping
 * answers from either.
 */
interface Env {
  readonly ASSETS?: { fetch(request: Request): Promise<Response> };
  readonly BUCKET?: R2Like;
}

function errorResponse(status: number, body: string, extra: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': ERROR_CACHE_CONTROL, 'x-content-type-options': 'nosniff', ...extra } });
}

/** The asset address of an output file: Pages serves `x.html` at `/x` and `x/index.html` at `/x/` (and redirects the file names). */
function assetPath(file: string): string {
  if (file === 'index.html') return '/';
  if (file.endsWith('/index.html')) return `/${file.slice(0, -'index.html'.length)}`;
  if (file.endsWith('.html')) return `/${file.slice(0, -'.html'.length)}`;
  return `/${file}`;
}

/**
 * The asset at `path`, never another: Pages redirects a form it does not serve (`/x/` for `x.html`, `/x` for
 * `x/index.html`), and a followed redirect would answer `/{channel}/{article}/` with the article (issue 34),
 * so redirects are not followed and count as no file ({@link isMissing}).
 */
async function asset(env: Env, request: Request, file: string): Promise<Response> {
  if (env.BUCKET) return bucketObject(env.BUCKET, request, file);
  if (!env.ASSETS) return errorResponse(500, JSON.stringify({ schema_version: '1.0', error: { code: 'INTERNAL', message: 'The worker has neither ASSETS (Pages) nor a BUCKET binding (R2). Bind the bucket the site is deployed to as BUCKET.' } }));
  return env.ASSETS.fetch(new Request(new URL(assetPath(file), request.url), { method: request.method, headers: request.headers, redirect: 'manual' }));
}

/** An output file from the R2 bucket (key: the deploy prefix and the file), with its validators and 304s. */
async function bucketObject(bucket: R2Like, request: Request, file: string): Promise<Response> {
  const object = await bucket.get(`${PRESSROOM.bucketPrefix}${file}`, { onlyIf: request.headers });
  if (object === null) return new Response(null, { status: 404 });
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set('etag', object.httpEtag);
  headers.set('last-modified', object.uploaded.toUTCString());
  // A failed precondition (If-None-Match matched, or not modified since): no body.
  if (!object.body) return new Response(null, { status: 304, headers });
  if (request.method === 'HEAD') {
    await object.body.cancel();
    return new Response(null, { status: 200, headers });
  }
  return new Response(object.body, { status: 200, headers });
}

/** True when an asset answer holds no file: a 404, or a redirect to another form of the address (304 is a file). */
function isMissing(res: Response): boolean {
  return res.status === 404 || (res.status >= 300 && res.status < 400 && res.status !== 304);
}

/**
 * A 404: the site's 404 page for a browser outside the API, in the language and channel of the address (the
 * first of its pages that exists, as the bundled server picks it), the JSON error body otherwise.
 */
async function notFound(env: Env, request: Request, path: string): Promise<Response> {
  if (isApiPath(path)) return errorResponse(404, PRESSROOM.notFound);
  if (wantsNotFoundPage(path, request.headers.get('accept') ?? undefined)) {
    for (const file of notFoundPageFiles(path)) {
      const page = await asset(env, new Request(request.url, { headers: {} }), file);
      if (page.status !== 200) {
        await page.body?.cancel();
        continue;
      }
      const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': ERROR_CACHE_CONTROL, vary: 'Accept', 'x-content-type-options': 'nosniff', ...HTML_SECURITY_HEADERS };
      if (request.method === 'HEAD') await page.body?.cancel();
      return new Response(request.method === 'HEAD' ? null : page.body, { status: 404, headers });
    }
  }
  return errorResponse(404, PRESSROOM.notFound, { vary: 'Accept' });
}

/** A list page that is not a file: 422 when the list (its first page's file) exists (the cursor names none of its pages), 404 when it does not. */
async function noPage(env: Env, request: Request, list: string | null): Promise<Response> {
  if (list !== null) {
    const res = await asset(env, new Request(request.url, { headers: {} }), list);
    await res.body?.cancel();
    if (res.status === 200) return errorResponse(422, PRESSROOM.errors.invalidCursor);
  }
  return errorResponse(404, PRESSROOM.notFound);
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    const decision = decideEdgeRequest(path, { values: (name) => url.searchParams.getAll(name) }, request.headers.get('accept') ?? undefined, PRESSROOM);
    if (decision.kind === 'error') return errorResponse(decision.status, decision.body);
    if (decision.kind === 'not-found') return notFound(env, request, path);
    if (decision.kind === 'no-page') return noPage(env, request, decision.list);
    const { answer, list } = decision;
    const res = await asset(env, request, answer.file);
    if (isMissing(res)) {
      await res.body?.cancel();
      return list !== null ? noPage(env, request, list) : notFound(env, request, path);
    }
    const headers = new Headers(res.headers);
    if (res.status === 200) headers.set('content-type', contentTypeOf(answer.file));
    headers.set('cache-control', /^(?:_astro|media)\//.test(answer.file) ? PRESSROOM.immutableCache : PRESSROOM.shortCache);
    headers.set('x-content-type-options', 'nosniff');
    for (const [name, value] of Object.entries(cacheTagHeaders(tagsOfFile(PRESSROOM.tagPrefix, answer.file)))) headers.set(name, value);
    for (const [name, value] of Object.entries(answer.headers)) headers.set(name, value);
    return new Response(res.body, { status: res.status, headers });
  },
};

/**
 * The anonymous public content API (`/api/public/v1`, spec
 * public-content-api.md). Thin: parse the query, ask the read side, map the
 * answer. The default form of every resource (no `limit`, `cursor` or
 * `include`) is the static file the build wrote, served as any static host
 * would; every other form is rendered on demand from the same public state by
 * the same renderers (`server/public-api/public-reader.ts`).
 * @module
 */
import { Hono, type Context } from 'hono';
import type { CursorCodec } from '../../domain/cursor.ts';
import { articleDocument, articleListPage, articleListSources, channelListPage, channelListSources, findArticle, requireArticle, requireChannel, translationMissing, type ReadAnswer } from '../../public-api/public-reader.ts';
import { answerKey, type AnswerCache, type Recheck } from '../../public-api/answer-cache.ts';
import { isDefaultForm, parsePublicQuery } from '../../public-api/public-query.ts';
import { searchArticles, type PublicArticleLookup } from '../../public-api/public-search.ts';
import type { AnyPublicArticle, PublicArticle, PublicTranslation, PublicTranslationSummary } from '../../read-model/view-models.ts';
import { renderArticleJsonOf, withContentHtml } from '../../render/article-json.ts';
import { publicHtmlOf } from '../../render/public-body.ts';
import { channelTranslationIn, translationIn } from '../../read-model/selection.ts';
import type { Db } from '../../store/database.ts';
import type { PublicUrls } from '../../urls/public-urls.ts';
import { fileForRequest } from '../../serving/static-files.ts';
import { etagOf, respondConditionally, type ConditionalBody } from '../conditional-get.ts';
import { PressroomError } from '../../domain/errors.ts';
import type { Store } from 'hono-rate-limiter';
import { perClientRateLimit } from '../middleware/rate-limit.ts';
import type { OutputFileCache } from '../output-file-cache.ts';
import type { AnswerFiles } from '../answer-files.ts';
import { documentCacheControl, serveOutputFile, type CachePolicy } from './site-files.ts';
import type { PublicState } from '../../read-model/public-state.ts';
import { openApiDocument } from './openapi-document.ts';
import { cacheTagHeaders, tagsOfQueryAnswer } from '../../serving/cache-tags.ts';

/** What the public API needs. */
export interface PublicApiDeps {
  readonly db: Db;
  /** The output folder's files, as the site routes read them. */
  readonly files: OutputFileCache;
  readonly cache: CachePolicy;
  readonly cursors: CursorCodec;
  readonly urls: PublicUrls;
  /** The public state the output was last built from. */
  readonly state: () => Promise<PublicState>;
  /** That state if the server holds it now, or null while it is being loaded (after a start). */
  readonly heldState: () => PublicState | null;
  /** The store's public articles among `ids`, without bodies (`PublicModel.heads`): what search shows before the state is held. */
  readonly loadHeads: (ids: readonly number[]) => Promise<readonly AnyPublicArticle[]>;
  /** One public article with its bodies (for `include=html`), or null. */
  readonly loadArticle: (id: number) => Promise<PublicArticle | null>;
  /** One translation of the state with its body, read alone while the store still holds that version (`PublicModel.translationBody`). */
  readonly loadTranslationBody?: (articleId: number, shown: PublicTranslationSummary) => Promise<PublicTranslation | null>;
  /**
   * One translation's stored rendering, read alone while the store still holds the version the state shows
   * (`PublicModel.translationHtml`): with the plain document's file, the whole `include=html` answer.
   */
  readonly loadTranslationHtml?: (articleId: number, shown: PublicTranslationSummary) => Promise<string | null>;
  /** Whether the search index may be queried. */
  readonly searchReady: () => boolean;
  /** Changes whenever the search index or the public state may have changed (see SearchKeeper.version). */
  readonly searchVersion: () => number;
  /** Answers rendered on demand, kept while their sources are current (shared with the fast path). */
  readonly answers: AnswerCache;
  /** `include=html` documents, kept on disk while the plain document's file is the same (shared with the fast path). */
  readonly answerFiles: AnswerFiles;
  /** The OpenAPI document of this API as JSON text (`openapi-json.ts`); read at its first request. */
  readonly openApi: () => string;
  readonly limits: {
    readonly content: number;
    readonly search: number;
    readonly trustProxyHops: number;
    /** Counters shared by every instance on the database (Postgres); absent: each instance counts in its memory. */
    readonly sharedStore?: (scope: string, windowMs: number) => Store;
  };
}

/** Search answers remembered at most (cleared when full). */
const SEARCH_CACHE_ENTRIES = 2_000;

/** Seconds a client is asked to wait while the search index is first built. */
const SEARCH_RETRY_AFTER_SECONDS = 5;

// A kept answer is encoded, hashed and given its headers once, not per request: the same body object each time,
// so the fast path's headers flattened once per body hold too. An answer is kept for one key, so one path.
const bodies = new WeakMap<ReadAnswer, { readonly path: string; readonly body: ConditionalBody }>();

/** The bytes, validators and headers of an answer kept in memory at `path`, made once (the routes and the fast path). */
export function readAnswerBody(read: ReadAnswer, cache: CachePolicy, path: string): ConditionalBody {
  const held = bodies.get(read);
  if (held?.path === path) return held.body;
  const body = answerBody(read, cache, path);
  bodies.set(read, { path, body });
  return body;
}

/** The bytes, validators and headers of an answer rendered on demand at `path`. */
function answerBody(read: ReadAnswer, cache: CachePolicy, path: string): ConditionalBody {
  return {
    bytes: new TextEncoder().encode(read.body),
    contentType: 'application/json; charset=utf-8',
    cacheControl: documentCacheControl(cache),
    etag: etagOf(read.body),
    lastModified: read.lastModified ? new Date(read.lastModified) : null,
    // Rendered on demand from the public state: purged with the lists it is drawn from (`serving/cache-tags.ts`).
    headers: cacheTagHeaders(tagsOfQueryAnswer(cache.tagPrefix, path)),
  };
}

/** The routes, to mount at `/api/public/v1`. */
export function publicApiRoutes(deps: PublicApiDeps): Hono {
  const app = new Hono();
  const shared = deps.limits.sharedStore;
  const contentLimit = perClientRateLimit('content requests', deps.limits.content, deps.limits.trustProxyHops, shared && ((ms) => shared('content', ms)));
  const searchLimit = perClientRateLimit('searches', deps.limits.search, deps.limits.trustProxyHops, shared && ((ms) => shared('search', ms)));
  // c.req.path is the canonical spelling (the app routes with normalizeRequestPath), so every spelling of an address shares its bucket.
  app.use('*', async (c, next) => (c.req.path.endsWith('/search') ? searchLimit(c, next) : contentLimit(c, next)));

  const answers = deps.answers;
  /**
   * The answer kept for this address while its sources are current, or the one `make` renders (then kept, with
   * where its sources are in a later state, so the fast path may serve it too).
   */
  async function kept(c: Context, sources: readonly object[] | null, recheck: Recheck, make: () => ReadAnswer | Promise<ReadAnswer>): Promise<ReadAnswer>;
  async function kept(c: Context, sources: readonly object[] | null, recheck: Recheck, make: () => Promise<ReadAnswer | null>): Promise<ReadAnswer | null>;
  async function kept(c: Context, sources: readonly object[] | null, recheck: Recheck, make: () => ReadAnswer | null | Promise<ReadAnswer | null>): Promise<ReadAnswer | null> {
    const key = answerKey(c.req.path, c.req.url);
    const hit = sources ? answers.get(key, sources) : undefined;
    if (hit) return hit;
    const read = await make();
    // A null (no answer from these sources) is not kept.
    if (sources && read) answers.set(key, sources, read, recheck);
    return read;
  }

  /** Sends a rendered answer with validators. */
  const answer = (c: Context, read: ReadAnswer): Promise<Response> => respondConditionally(c, readAnswerBody(read, deps.cache, c.req.path));

  /** Serves the static file of a default form, or resolves null when there is none. */
  const staticFile = async (c: Context, lang: string | undefined, cursor?: string): Promise<Response | null> => {
    const mapped = fileForRequest(new URL(c.req.url).pathname, lang ?? null, cursor ?? null);
    return 'file' in mapped ? serveOutputFile(c, deps.files, mapped.file, deps.cache) : null;
  };
  // The state has it but its file is not (yet) written: the build is catching up.
  const rebuilding = (_c: Context): never => {
    throw new PressroomError('NOT_FOUND', 'This document is being rebuilt. Try again in a moment.');
  };

  const query = (c: Context) => new URL(c.req.url).searchParams;

  // The built document (with an ETag, Cache-Control and 304s, as every host serves it); without a build, the one in docs/.
  // The build writes the document to dist/; before the first build, the same bytes from memory.
  const openApi = openApiDocument(deps.openApi, deps.cache.maxAgeSeconds);
  app.get('/openapi.json', async (c) => (await staticFile(c, undefined)) ?? openApi(c));

  // Default forms try the file first: a file is published by construction, so the hot path reads no state.
  // Only a miss consults the public state, to say exactly what is missing.
  app.get('/channels', async (c) => {
    const q = parsePublicQuery('listPublicChannels', query(c));
    if (isDefaultForm(q)) {
      // There is a file per language some channel has; a language none has is an empty list, rendered.
      const file = await staticFile(c, q.lang);
      if (file) return file;
      if (!q.lang) return rebuilding(c);
    }
    const state = await deps.state();
    const read = await kept(c, channelListSources(state, q), (now) => channelListSources(now, q), () => channelListPage(state, q, { cursors: deps.cursors, channelsUrl: deps.urls.channelsJson() }));
    return answer(c, read);
  });

  app.get('/channels/:channel', async (c) => {
    const q = parsePublicQuery('getPublicChannel', query(c));
    const file = await staticFile(c, q.lang);
    if (file) return file;
    const channel = requireChannel(await deps.state(), c.req.param('channel'));
    // An empty or malformed value names no translation either (this operation documents no 422).
    if (q.lang !== undefined && !channelTranslationIn(channel, q.lang)) {
      throw translationMissing(`The channel "${channel.slug}"`, q.lang, channel.translations.map((t) => t.language));
    }
    return rebuilding(c);
  });

  app.get('/channels/:channel/articles', async (c) => {
    const q = parsePublicQuery('listPublicArticles', query(c));
    // A later page of the default size is a file too (read-model/list-pages.ts); a cursor with none is resolved (and refused) below.
    const file = isDefaultForm(q) ? await staticFile(c, q.lang) : isDefaultForm({ ...q, cursor: undefined }) ? await staticFile(c, q.lang, q.cursor) : null;
    if (file) return file;
    const state = await deps.state();
    const channel = c.req.param('channel');
    const read = await kept(c, articleListSources(state, channel, q), (now) => articleListSources(now, channel, q), () => articleListPage(state, channel, q, { cursors: deps.cursors }));
    return answer(c, read);
  });

  app.get('/channels/:channel/articles/:article', async (c) => {
    const raw = c.req.param('article');
    const markdown = raw.endsWith('.md');
    const q = parsePublicQuery(markdown ? 'getPublicArticleMarkdown' : 'getPublicArticle', query(c));
    const includeHtml = 'include' in q && q.include === 'html';
    const file = includeHtml ? null : await staticFile(c, q.lang);
    if (file) return file;
    const article = requireArticle(await deps.state(), c.req.param('channel'), markdown ? raw.slice(0, -3) : raw);
    const language = q.lang ?? article.defaultLanguage;
    if (!translationIn(article, language)) {
      throw translationMissing(`The article "${article.slug}"`, language, article.translations.map((t) => t.language));
    }
    if (!includeHtml) return rebuilding(c);
    const shown = translationIn(article, language)!;
    const [channelSlug, articleSlug] = [c.req.param('channel'), article.slug];
    // The stored rendering added to the built document of the same version (the plain form's file): kept on disk
    // while that file is the same file (`answer-files.ts`), so a crawler of every article reads each once.
    const mapped = fileForRequest(new URL(c.req.url).pathname, q.lang ?? null, null);
    if ('file' in mapped && deps.loadTranslationHtml) {
      const key = answerKey(c.req.path, c.req.url);
      const saved = await deps.answerFiles.get(key);
      if (saved) return respondConditionally(c, saved.body);
      const built = await deps.files.get(mapped.file);
      const html = built ? await deps.loadTranslationHtml(article.id, shown) : null;
      const body = built && html !== null ? withContentHtml(new TextDecoder().decode(built.bytes), { id: article.id, ...shown }, publicHtmlOf({ html, htmlUrl: shown.htmlUrl })) : null;
      if (built && body !== null) {
        const made = answerBody({ body, lastModified: shown.updatedAt }, deps.cache, c.req.path);
        deps.answerFiles.put(key, { file: mapped.file, stamp: built.stamp }, made);
        return respondConditionally(c, made);
      }
      // Null: the file or the store is not of the state's version (a build in between); rendered whole below.
    }
    // Kept while the article's summary is the state's (a new version replaces it).
    const sourcesIn = (now: PublicState) => {
      const current = findArticle(now, channelSlug, articleSlug);
      return current ? [current] : null;
    };
    const read = await kept(c, [article], sourcesIn, async () => {
      // The shown translation's body alone (one row) while the store holds the version the state shows; else
      // the whole article, as the store has it now.
      const body = await deps.loadTranslationBody?.(article.id, shown);
      if (body) return { body: renderArticleJsonOf(article, body, { includeHtml: true }), lastModified: body.updatedAt };
      const full = await deps.loadArticle(article.id);
      if (!full) throw new PressroomError('ARTICLE_NOT_FOUND');
      return articleDocument(full, q.lang, true);
    });
    return answer(c, read);
  });

  // Answers by query string, valid while the index and the state are unchanged: readers repeat
  // popular searches, and a common word costs a sort of every document it matches.
  const remembered = new Map<string, ReadAnswer>();
  let rememberedVersion = -1;
  app.get('/search', async (c) => {
    const q = parsePublicQuery('searchPublicArticles', query(c));
    if (!deps.searchReady()) {
      c.header('Retry-After', String(SEARCH_RETRY_AFTER_SECONDS));
      throw new PressroomError('SEARCH_UNAVAILABLE');
    }
    const version = deps.searchVersion();
    if (version !== rememberedVersion) {
      remembered.clear();
      rememberedVersion = version;
    }
    const key = new URL(c.req.url).search;
    let read = remembered.get(key);
    if (!read) {
      // Until the state is held (a start loads it on the build thread), the matches are looked up in the store
      // alone: the index is in step with the output already, and a search need not wait for the whole state.
      const held = deps.heldState();
      const articles: PublicArticleLookup = held
        ? async () => held.articles
        : async (ids) => new Map((await deps.loadHeads(ids)).map((article) => [article.id, article]));
      read = await searchArticles(q, { db: deps.db, cursors: deps.cursors, searchUrl: deps.urls.search(), ready: deps.searchReady, articles });
      // The version may have moved while the index was read: remember only what is still current, and only an
      // answer drawn from the state (the version follows the state's changes, not the store's).
      if (held && deps.searchVersion() === version) {
        if (remembered.size >= SEARCH_CACHE_ENTRIES) remembered.clear();
        remembered.set(key, read);
      }
    }
    return answer(c, read);
  });

  app.all('/*', (c) => {
    throw new PressroomError(
      'NOT_FOUND',
      `Nothing exists at ${c.req.method} ${c.req.path}. The public API answers GET on /channels, /channels/{channel}, /channels/{channel}/articles, /channels/{channel}/articles/{article}(.md) and /search; see /api/public/v1/openapi.json.`,
    );
  });
  return app;
}

/**
 * Keeps the read API's full-text index (SQLite FTS5, `search_documents`) in
 * step with the public state, from the same build reports that drive the
 * static output and the Pagefind shards: after a full build every document
 * is compared by version, after an incremental build only the articles it
 * re-read. Only public translations are ever indexed; a translation that
 * stops being public loses its document in the same sync.
 *
 * The index is "ready" once one complete sync has finished (remembered in
 * `instance_settings`, so a restart serves search at once); before that the
 * search endpoint answers 503.
 *
 * Each successful sync also records the newest publication event whose
 * changes the documents hold (`search_index_through`, with the versions of
 * the documents and of the body renderer). Every public change is announced
 * by an event (`domain/public-change.ts`), so when no event came since, the
 * documents are still in step and `syncAll` has nothing to compare: a
 * restart of a 10,000-article site no longer reads the whole public state
 * (seconds of one thread's work) before answering. A failed sync forgets
 * the record until a `syncAll` succeeds.
 * @module
 */
import type { Logger } from '../logger.ts';
import { createSerialQueue } from '../serial-work.ts';
import type { PublicArticleText } from '../read-model/public-model.ts';
import type { AnyPublicArticle } from '../read-model/view-models.ts';
import type { Db } from '../store/database.ts';
import { readSetting, writeSetting } from '../store/instance-setting.repository.ts';
import {
  deleteDocuments,
  documentKey,
  documentsOfArticles,
  documentVersions,
  putDocument,
  type SearchDocument,
} from '../store/search-document.repository.ts';
import type { PublicState } from '../read-model/public-state.ts';
import { BODY_RENDER_VERSION } from '../domain/body/index.ts';
import { describeError } from '../describe-error.ts';

/** The instance setting that says a complete sync finished once ('1'): a web instance reads it too. */
export const SEARCH_COMPLETE_SETTING = 'search_index_complete';
const COMPLETE_SETTING = SEARCH_COMPLETE_SETTING;
const THROUGH_SETTING = 'search_index_through';
/** Bump when what a document holds changes (`documentsOf`, `versionOf`): every index is compared again once. */
const DOCUMENTS_VERSION = '1';
// Articles loaded (with bodies) and written per transaction: bounds memory and lock time.
const BATCH = 100;

/** The keeper's operations; syncs run one at a time, in order. */
export interface SearchKeeper {
  /**
   * A number that changes whenever a sync is asked for and when it finishes:
   * search answers remembered under one version are valid until it changes.
   */
  version(): number;
  /** Whether the index may be queried (a complete sync has finished, now or in an earlier run). */
  ready(): boolean;
  /** Compares every document with the public state and fixes the differences. */
  syncAll(): Promise<void>;
  /**
   * Re-indexes the given articles (every language), removing what is no
   * longer public. `through`: the newest event of the build that re-read
   * them (`BuildReport.through`).
   */
  syncArticles(ids: readonly number[], through: number): Promise<void>;
  /** Resolves when no sync is running or queued. */
  idle(): Promise<void>;
}

/** What the keeper needs. */
export interface SearchKeeperDeps {
  readonly db: Db;
  /** The public state the output was last built from (summaries). */
  readonly state: () => Promise<PublicState>;
  /** Loads public articles with each translation's plain text (no Markdown, no HTML). */
  readonly loadTexts: (ids: readonly number[]) => Promise<PublicArticleText[]>;
  /** The newest publication event in the store (`lastEventId`). */
  readonly lastEventId: () => Promise<number>;
  readonly log: Logger;
  /** Articles to write from which a sync logs its progress every tenth. Default: `PROGRESS_MIN_ARTICLES`. */
  readonly progressMinArticles?: number;
}

/**
 * A sync that writes this many articles or more says how far it is every tenth: the first start after a
 * 100,000-article build writes 200,000 documents, minutes of work (docs/PERFORMANCE.md, "Current figures"), while
 * search answers 503.
 */
export const PROGRESS_MIN_ARTICLES = 1000;

/** What `search_index_through` holds after a sync of every change up to event `through`. */
const throughValue = (through: number) => `${DOCUMENTS_VERSION}|${BODY_RENDER_VERSION}|${through}`;

/** The version of a translation's document: changes whenever anything indexed or filtered on changes. */
function versionOf(article: AnyPublicArticle | PublicArticleText, language: string): string {
  const t = article.translations.find((x) => x.language === language)!;
  return [article.channel.id, article.channel.slug, article.slug, article.publishedAt, t.publishedAt, t.updatedAt].join('|');
}

function documentsOf(article: PublicArticleText): SearchDocument[] {
  return article.translations.map((t) => ({
    articleId: article.id,
    language: t.language,
    channelId: article.channel.id,
    channelSlug: article.channel.slug,
    publishedAt: article.publishedAt,
    version: versionOf(article, t.language),
    title: t.title,
    excerpt: t.excerpt ?? '',
    body: t.text,
  }));
}

/** Creates the keeper; call `syncAll()` once at start. */
export async function createSearchKeeper(deps: SearchKeeperDeps): Promise<SearchKeeper> {
  let complete = (await readSetting(deps.db, COMPLETE_SETTING)) === '1';
  let version = 0;
  // Whether this process knows the documents hold every change up to the last sync's event: only from its
  // first full sync on (a build's articles synced before it say nothing of the builds before this process),
  // and not after a failed sync until a full one succeeds.
  let inStep = false;
  let failed = false;
  const queue = createSerialQueue();
  const serial = (work: () => Promise<void>): Promise<void> =>
    queue.run(work).catch(async (error: unknown) => {
      inStep = false;
      failed = true;
      deps.log.error('search index sync failed', { error: describeError(error, { stack: true }) });
      await writeSetting(deps.db, THROUGH_SETTING, '').catch(() => undefined);
    });
  const recordThrough = (through: number) => writeSetting(deps.db, THROUGH_SETTING, throughValue(through));

  /** Runs a sync in order, changing the version when it is asked for and when it is done. */
  const versioned = (work: () => Promise<void>): Promise<void> => {
    version++;
    return serial(async () => {
      try {
        await work();
      } finally {
        version++;
      }
    });
  };

  /** Writes the documents of `ids` (loaded with their text) in batches. */
  async function writeArticles(ids: readonly number[]): Promise<number> {
    let written = 0;
    const started = performance.now();
    const step = ids.length >= (deps.progressMinArticles ?? PROGRESS_MIN_ARTICLES) ? Math.ceil(ids.length / 10) : Infinity;
    for (let i = 0; i < ids.length; i += BATCH) {
      // Between batches the server answers requests: the store answers synchronously, so without this a first
      // sync of 20,000 documents would hold every request for as long as it takes.
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      const articles = await deps.loadTexts(ids.slice(i, i + BATCH));
      await deps.db.transaction().execute(async (trx) => {
        for (const article of articles) {
          for (const doc of documentsOf(article)) {
            await putDocument(trx, doc);
            written++;
          }
        }
      });
      const done = Math.min(i + BATCH, ids.length);
      if (done < ids.length && Math.floor(done / step) > Math.floor(i / step)) {
        deps.log.info('search index progress', { articles: done, of: ids.length, documents: written, ms: Math.round(performance.now() - started) });
      }
    }
    return written;
  }

  async function syncAll(): Promise<void> {
    const started = performance.now();
    if (complete && !failed && (await readSetting(deps.db, THROUGH_SETTING)) === throughValue(await deps.lastEventId())) {
      inStep = true;
      deps.log.info('search index in step', { ms: Math.round(performance.now() - started) });
      return;
    }
    const state = await deps.state();
    const stored = await documentVersions(deps.db);
    const wanted = new Set<string>();
    const stale = new Set<number>();
    for (const article of state.articles.values()) {
      for (const t of article.translations) {
        const key = documentKey(article.id, t.language);
        wanted.add(key);
        if (stored.get(key)?.version !== versionOf(article, t.language)) stale.add(article.id);
      }
    }
    const gone = [...stored].filter(([key]) => !wanted.has(key)).map(([, doc]) => doc.id);
    await deps.db.transaction().execute((trx) => deleteDocuments(trx, gone));
    const written = await writeArticles([...stale]);
    if (!complete) await writeSetting(deps.db, COMPLETE_SETTING, '1');
    complete = true;
    failed = false;
    inStep = true;
    await recordThrough(state.through);
    deps.log.info('search index synced', { documents: wanted.size, written, removed: gone.length, ms: Math.round(performance.now() - started) });
  }

  async function syncArticles(ids: readonly number[], through: number): Promise<void> {
    if (ids.length === 0) return;
    const state = await deps.state();
    const existing = await documentsOfArticles(deps.db, ids);
    const wanted = new Set<string>();
    const stillPublic: number[] = [];
    for (const id of ids) {
      const article = state.articles.get(id);
      if (!article) continue;
      stillPublic.push(id);
      for (const t of article.translations) wanted.add(documentKey(id, t.language));
    }
    const gone = [...existing].filter(([key]) => !wanted.has(key)).map(([, docId]) => docId);
    await deps.db.transaction().execute((trx) => deleteDocuments(trx, gone));
    await writeArticles(stillPublic);
    // Every change up to `through` was in this build or an earlier one, each of which was synced.
    if (inStep) await recordThrough(through);
  }

  return {
    ready: () => complete,
    version: () => version,
    syncAll: () => versioned(syncAll),
    syncArticles: (ids, through) => versioned(() => syncArticles(ids, through)),
    idle: () => queue.idle(),
  };
}

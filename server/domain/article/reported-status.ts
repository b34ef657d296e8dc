/**
 * Read your writes (issue 13; docs/LIFECYCLE.md, "Read your writes"): with
 * the static build on, "published" in the publishing API means what readers
 * get, so statuses are reported from what the output shows
 * (`built_translations`, recorded by the builder once every file of a
 * build, lists and feeds included, is in place), not only from the store.
 *
 * - The store says published, the output does not show it yet and the
 *   build has work pending for the article (an unprocessed publication
 *   event names it or its channel): the translation is *being published*
 *   and reads `moderation_review` (the article's `moderation` already reads
 *   `passed`) until the build has placed its files. With nothing pending,
 *   the build has decided not to show it (a hidden channel): the store's
 *   status stands, so a polling client still reaches a final state.
 * - The store says it is no longer public, the output still shows it: it
 *   reads `published` until its files are gone. Writes that withdraw wait
 *   for that build before answering (`OutputWatch`), so their own answer is
 *   already true.
 *
 * With the build off there is no output and the store is the truth.
 * @module
 */
import type { ArticleRow, TranslationRow } from '../../store/article.table.ts';
import type { TranslationStatus } from './article-status.ts';
import type { Executor } from '../../store/database.ts';

/**
 * What a write may wait for: the build of what it changed. Present only when
 * the static build is on.
 */
export interface OutputWatch {
  /** Asks for a build of pending changes and resolves when none is pending, or after `timeoutMs`. */
  settle(timeoutMs: number): Promise<void>;
  /**
   * With an edge (CDNs purged after each build): what holds changes back
   * there when it is failing or slow, in words for the publisher; null when
   * it keeps up. Reported on the articles it holds back (`EDGE_DELIVERY_DELAYED`).
   * Reads through `db`, the caller's executor (a transaction holds the connection).
   */
  edgeDelay?(db: Executor): Promise<string | null>;
}

/** Permanent code of the warning on an article whose change the edge has not taken yet while it is failing or slow. */
export const EDGE_DELIVERY_DELAYED = 'EDGE_DELIVERY_DELAYED';

/**
 * The status reported for a translation. @param shown whether the output
 * shows it. @param building whether the build has work pending for its article.
 */
export function reportedTranslationStatus(stored: TranslationStatus, shown: boolean, building: boolean): TranslationStatus {
  if (stored === 'published') return shown || !building ? 'published' : 'moderation_review';
  return shown ? 'published' : stored;
}

/**
 * The article and its translations with statuses as readers see them.
 * @param built languages the output shows of this article.
 * @param building whether the build has work pending for it.
 */
export function withReportedStatuses(
  article: ArticleRow,
  translations: readonly TranslationRow[],
  built: ReadonlySet<string>,
  building: boolean,
): { article: ArticleRow; translations: TranslationRow[] } {
  const reported = translations.map((t) => {
    const status = reportedTranslationStatus(t.status, built.has(t.language), building);
    return status === t.status ? t : { ...t, status };
  });
  // The article's status follows its primary translation, the one its address shows.
  const primaryShown = built.has(article.default_language);
  const status =
    article.status === 'published' ? (primaryShown || !building ? 'published' : 'moderation_review') : primaryShown ? 'published' : article.status;
  return { article: status === article.status ? article : { ...article, status }, translations: reported };
}

/**
 * Whether a view still reports as public something the store has withdrawn:
 * the write that did so should wait for its build.
 */
export function withdrawalPending(stored: readonly TranslationRow[], built: ReadonlySet<string>): boolean {
  return stored.some((t) => t.status !== 'published' && built.has(t.language));
}

/**
 * Languages whose newest revision passed moderation and is the published
 * one in the store, while the output still shows an older version and the
 * build has work pending: the revision is *being published*. The publishing
 * API keeps showing it in `pending_revision` (`moderation: "passed"`) until
 * the files show it, so a client that waits for `pending_revision: null`
 * then reads the new text.
 * @param built language → content hash the output shows, for this article.
 * @param latest the newest revision of each translation, by translation id.
 */
export function revisionsBeingPublished(
  translations: readonly TranslationRow[],
  built: ReadonlyMap<string, string>,
  latest: ReadonlyMap<number, { id: number; content_hash: string }>,
  building: boolean,
): Set<string> {
  const out = new Set<string>();
  if (!building) return out;
  for (const t of translations) {
    const newest = latest.get(t.id);
    const shown = built.get(t.language);
    if (t.status === 'published' && newest !== undefined && newest.id === t.published_revision_id && shown !== undefined && shown !== newest.content_hash) {
      out.add(t.language);
    }
  }
  return out;
}

/**
 * `built_translations`: which published content the static output shows of
 * each translation (migration 0008). Written only by the builder, after the
 * files of a build are all in place; read by the publishing API to report
 * what readers actually get.
 * @module
 */
import type { Executor } from './database.ts';

/** An article's built translations: language → content hash. Articles the output does not show are absent. */
export type BuiltArticles = ReadonlyMap<number, ReadonlyMap<string, string>>;

/** The built translations of some articles. */
export async function readBuiltTranslations(db: Executor, articleIds: readonly number[]): Promise<BuiltArticles> {
  const out = new Map<number, Map<string, string>>();
  for (let i = 0; i < articleIds.length; i += 500) {
    const rows = await db.selectFrom('built_translations').selectAll().where('article_id', 'in', articleIds.slice(i, i + 500)).execute();
    for (const r of rows) {
      if (!out.has(r.article_id)) out.set(r.article_id, new Map());
      out.get(r.article_id)!.set(r.language, r.content_hash);
    }
  }
  return out;
}

/**
 * Replaces what is recorded for each given article (an empty record: the
 * output shows nothing of it). With `everything`, articles not given are
 * forgotten too (a full build names every public article).
 */
export async function recordBuiltTranslations(
  db: Executor,
  articles: ReadonlyMap<number, Readonly<Record<string, string>>>,
  options: { everything?: boolean } = {},
): Promise<void> {
  const ids = [...articles.keys()];
  if (options.everything) await db.deleteFrom('built_translations').execute();
  else for (let i = 0; i < ids.length; i += 500) await db.deleteFrom('built_translations').where('article_id', 'in', ids.slice(i, i + 500)).execute();
  const rows = [...articles].flatMap(([articleId, hashes]) => Object.entries(hashes).map(([language, hash]) => ({ article_id: articleId, language, content_hash: hash })));
  for (let i = 0; i < rows.length; i += 300) await db.insertInto('built_translations').values(rows.slice(i, i + 300)).execute();
}

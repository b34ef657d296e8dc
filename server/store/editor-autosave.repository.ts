/**
 * The editor's private autosave slots: at most one per account, article and
 * language. Private to the account that wrote it: nothing public reads this
 * table. The caller owns the transaction.
 * @module
 */
import type { Executor } from './database.ts';
import type { EditorAutosaveRow } from './editor-autosave.table.ts';

/** Which slot. */
export interface AutosaveKey {
  readonly accountId: number;
  readonly articleId: number;
  readonly language: string;
}

const where = (key: AutosaveKey) => ({ account_id: key.accountId, article_id: key.articleId, language: key.language });

/** The slot, if the account has one for this translation. */
export async function findAutosave(db: Executor, key: AutosaveKey): Promise<EditorAutosaveRow | undefined> {
  const k = where(key);
  return db
    .selectFrom('editor_autosaves')
    .selectAll()
    .where('account_id', '=', k.account_id)
    .where('article_id', '=', k.article_id)
    .where('language', '=', k.language)
    .executeTakeFirst();
}

/** Writes the slot, replacing what it held. */
export async function putAutosave(db: Executor, row: EditorAutosaveRow): Promise<void> {
  const { title, excerpt, content_markdown, seo_title, seo_description, based_on_version, saved_at } = row;
  await db
    .insertInto('editor_autosaves')
    .values(row)
    .onConflict((oc) => oc.columns(['account_id', 'article_id', 'language']).doUpdateSet({ title, excerpt, content_markdown, seo_title, seo_description, based_on_version, saved_at }))
    .execute();
}

/** Empties the slot. @returns whether there was one. */
export async function deleteAutosave(db: Executor, key: AutosaveKey): Promise<boolean> {
  const k = where(key);
  const result = await db
    .deleteFrom('editor_autosaves')
    .where('account_id', '=', k.account_id)
    .where('article_id', '=', k.article_id)
    .where('language', '=', k.language)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

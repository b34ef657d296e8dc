/**
 * Stored images (`media`). Functions take the executor first; the caller owns
 * the transaction. Files live on disk (`server/media/media-storage.ts`); this
 * module only reads and writes rows.
 * @module
 */
import { sql } from 'kysely';
import type { Executor } from './database.ts';
import type { MediaRow, MediaUpdate, NewMediaRow } from './media.table.ts';

/** The row of a file, by its name under the media folder (names are unique). */
export async function findMediaByFileName(db: Executor, fileName: string): Promise<MediaRow | undefined> {
  return db.selectFrom('media').selectAll().where('file_name', '=', fileName).executeTakeFirst();
}

/** The attached (non-draft) article images among `names`, for the article image rule (`domain/body/article-image.ts`). */
export async function listArticleImageFiles(db: Executor, names: readonly string[]): Promise<Array<Pick<MediaRow, 'file_name' | 'article_id' | 'bytes' | 'width' | 'height'>>> {
  const rows: Array<Pick<MediaRow, 'file_name' | 'article_id' | 'bytes' | 'width' | 'height'>> = [];
  // In slices: a whole site's names would pass SQLite's limit on bound parameters.
  for (let start = 0; start < names.length; start += 500) {
    const slice = names.slice(start, start + 500);
    rows.push(
      ...(await db
        .selectFrom('media')
        .select(['file_name', 'article_id', 'bytes', 'width', 'height'])
        .where('file_name', 'in', slice)
        .where('draft', '=', 0)
        .where('purpose', '=', 'article')
        .execute()),
    );
  }
  return rows;
}

/** Inserts a row and returns it. */
export async function insertMedia(db: Executor, row: NewMediaRow): Promise<MediaRow> {
  return db.insertInto('media').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Updates a row's columns. */
export async function updateMedia(db: Executor, id: number, patch: MediaUpdate): Promise<void> {
  await db.updateTable('media').set(patch).where('id', '=', id).execute();
}

/** Deletes a row. Returns whether it existed. */
export async function deleteMedia(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('media').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Draft images created before `before`, oldest first. */
export async function listDraftsBefore(db: Executor, before: string, limit = 500): Promise<MediaRow[]> {
  return db.selectFrom('media').selectAll().where('draft', '=', 1).where('created_at', '<', before).orderBy('created_at').limit(limit).execute();
}

/** Channel avatars and covers created before `before` that no channel shows any more. */
export async function listReplacedChannelImagesBefore(db: Executor, before: string, limit = 500): Promise<MediaRow[]> {
  return db
    .selectFrom('media')
    .selectAll()
    .where('purpose', 'in', ['channel_avatar', 'channel_cover'])
    .where('created_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('channels')
            .select('channels.id')
            .where((eb) => eb.or([eb('channels.avatar_media_id', '=', eb.ref('media.id')), eb('channels.cover_media_id', '=', eb.ref('media.id'))])),
        ),
      ),
    )
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/**
 * Whether any stored article text (current content or any revision) still
 * contains `needle`, e.g. a draft file's path. A safety net for the cleanup:
 * a reference that was not rewritten keeps its file.
 */
export async function isTextReferenced(db: Executor, needle: string): Promise<boolean> {
  const current = await db
    .selectFrom('article_translations')
    .select('id')
    .where(sql<boolean>`instr(content_markdown, ${needle}) > 0`)
    .limit(1)
    .executeTakeFirst();
  if (current) return true;
  const revision = await db.selectFrom('revisions').select('id').where(sql<boolean>`instr(content_markdown, ${needle}) > 0`).limit(1).executeTakeFirst();
  return revision !== undefined;
}

/** The file names of the given media rows. */
export async function listMediaFileNames(db: Executor, ids: readonly number[]): Promise<Array<{ id: number; file_name: string; feed_file_name: string | null }>> {
  if (ids.length === 0) return [];
  return db.selectFrom('media').select(['id', 'file_name', 'feed_file_name']).where('id', 'in', ids).execute();
}

/** Every media file the store knows of, by id: its name, its feed rendition's, and its bytes' hash. */
export async function listAllMediaFiles(db: Executor): Promise<Array<{ file_name: string; feed_file_name: string | null; content_hash: string }>> {
  return db.selectFrom('media').select(['file_name', 'feed_file_name', 'content_hash']).orderBy('id').execute();
}

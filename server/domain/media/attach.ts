/**
 * Images referenced in an article are attached to it (publishing-api.md,
 * media rule 3). Called by the article service inside its transaction, after
 * the bodies are prepared and the article row exists, before the content is
 * stored: every draft image URL of the channel found in any translation is
 * copied into the article's media folder, gets an attached row, and the
 * reference is rewritten to the final URL.
 *
 * The draft file itself stays until the cleanup job: another article, or a
 * translation saved later, may still point at it.
 * @module
 */
import type { ArticleRow } from '../../store/article.table.ts';
import type { ChannelRow } from '../../store/channel.table.ts';
import type { Executor } from '../../store/database.ts';
import { findMediaByFileName, insertMedia, updateMedia } from '../../store/media.repository.ts';
import type { MediaKit } from './media-kit.ts';
import { articleFileName, draftFileName, draftReferences, rewriteDraftReferences } from './media-paths.ts';

/** The article whose bodies are being saved. */
export interface AttachTarget {
  readonly channel: Pick<ChannelRow, 'id' | 'slug'>;
  readonly article: Pick<ArticleRow, 'id' | 'slug'>;
  /** Time of the write, stored on new rows. */
  readonly now: string;
}

/** Attaches one draft; false when it no longer exists (cleaned up, or never uploaded). */
async function attachDraft(trx: Executor, media: MediaKit, target: AttachTarget, short: string): Promise<boolean> {
  const draft = await findMediaByFileName(trx, draftFileName(target.channel.slug, short));
  if (!draft || draft.channel_id !== target.channel.id) return false;
  const fileName = articleFileName(target.channel.slug, target.article.slug, short);
  if (!(await media.storage.copy(draft.file_name, fileName))) return false;
  const existing = await findMediaByFileName(trx, fileName);
  if (existing) {
    if (existing.article_id !== target.article.id) await updateMedia(trx, existing.id, { article_id: target.article.id });
    return true;
  }
  const { id: _id, ...copy } = draft;
  await insertMedia(trx, { ...copy, article_id: target.article.id, file_name: fileName, draft: 0, created_at: target.now });
  return true;
}

/**
 * The URL rewrites `attachArticleMedia` will make in `texts` if nothing
 * changes meanwhile: one `[draft URL, article URL]` per referenced draft of
 * the channel that exists now. Read before the save's transaction, so the
 * body pool can render the rewritten bodies too (`BodyJob.rewrites`) and
 * the transaction need not render them again.
 */
export async function plannedDraftRewrites(
  db: Executor,
  media: MediaKit | undefined,
  target: { readonly channel: Pick<ChannelRow, 'id' | 'slug'>; readonly articleSlug: string },
  texts: readonly string[],
): Promise<Array<[string, string]>> {
  if (!media) return [];
  const rewrites: Array<[string, string]> = [];
  for (const short of new Set(texts.flatMap((text) => draftReferences(text, target.channel.slug)))) {
    const draft = await findMediaByFileName(db, draftFileName(target.channel.slug, short));
    if (draft && draft.channel_id === target.channel.id) {
      rewrites.push([`/media/${draftFileName(target.channel.slug, short)}`, `/media/${articleFileName(target.channel.slug, target.articleSlug, short)}`]);
    }
  }
  return rewrites;
}

/**
 * Attaches the draft images referenced in `markdowns` (one per translation)
 * to the article and returns the bodies with those references rewritten, in
 * the same order. A reference to a draft that no longer exists is left as it
 * is. Without `media` (content import, admin tools) the bodies are returned
 * unchanged.
 * @example contents = await attachArticleMedia(trx, deps.media, { channel, article, now }, contents.map((c) => c.content_markdown));
 */
export async function attachArticleMedia(
  trx: Executor,
  media: MediaKit | undefined,
  target: AttachTarget,
  markdowns: readonly string[],
): Promise<string[]> {
  if (!media) return [...markdowns];
  const shorts = new Set(markdowns.flatMap((text) => draftReferences(text, target.channel.slug)));
  const attached = new Set<string>();
  for (const short of shorts) {
    if (await attachDraft(trx, media, target, short)) attached.add(short);
  }
  if (attached.size === 0) return [...markdowns];
  return markdowns.map((text) => rewriteDraftReferences(text, target.channel.slug, target.article.slug, attached));
}

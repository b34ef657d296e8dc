/**
 * POST …/media: checks the upload and the caller's rights, turns the image
 * into a stored WebP (article image, channel avatar or cover), writes the file
 * and its row, and answers with the Image response.
 *
 * The image is processed outside any transaction: SQLite has one writer and a
 * 24 MP decode takes a noticeable fraction of a second.
 * @module
 */
import type { Clock } from '../../clock.ts';
import { isoNow } from '../../clock.ts';
import { channelAccess, requireApiPublishing, requireArticleWrite, requireChannelManage, type ChannelAccess } from '../account/access.ts';
import type { Principal } from '../account/account.service.ts';
import { PressroomError, validationError } from '../errors.ts';
import { findArticleBySlug } from '../../store/article.repository.ts';
import { listChannelTranslations, updateChannel } from '../../store/channel.repository.ts';
import type { Db, Executor } from '../../store/database.ts';
import { findMediaByFileName, insertMedia, updateMedia } from '../../store/media.repository.ts';
import type { MediaRow, NewMediaRow } from '../../store/media.table.ts';
import { announcePublicChange } from '../public-change.ts';
import type { PublicUrls } from '../../urls/public-urls.ts';
import { ARTICLE_MAX_SIDE, AVATAR_SIZE, COVER_SIZE, type MediaKit } from './media-kit.ts';
import { articleFileName, channelFileName, contentHash, draftFileName, feedImageFileName } from './media-paths.ts';
import type { MediaFields } from './media.schema.ts';
import { toImageView, type ImageView } from './media-view.ts';
import { readUploadInput, type UploadInput, type UploadRules } from './upload-input.ts';
import { WATERMARK_TYPE_CHANNEL_NAME, WATERMARK_TYPE_NONE } from './watermark.ts';
import { ImageInputError, type ImageShape, type ImageSource, type ProcessedImage } from './image-port.ts';

/** What the media service needs. */
export interface MediaDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly urls: PublicUrls;
  readonly media: MediaKit;
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

function requireRight(access: ChannelAccess, purpose: MediaFields['purpose']): void {
  if (purpose === 'article') requireArticleWrite(access);
  else requireChannelManage(access);
}

/** Field combinations the spec rules out for channel images. */
function checkCombination(fields: MediaFields): void {
  if (fields.purpose === 'article') return;
  const problems: Record<string, string> = {};
  if (fields.page_slug !== undefined) problems.page_slug = `A ${fields.purpose} belongs to the channel, not to an article. Leave page_slug out.`;
  if (fields.watermark === 'on') problems.watermark = 'Channel avatars and covers are never watermarked. Send "auto" or "off", or leave watermark out.';
  if (Object.keys(problems).length > 0) throw validationError(problems);
}

function shapeFor(fields: MediaFields): ImageShape {
  const focus = { x: fields.position_x, y: fields.position_y };
  if (fields.purpose === 'channel_avatar') return { kind: 'crop', ...AVATAR_SIZE, focus, upscale: true };
  if (fields.purpose === 'channel_cover') return { kind: 'crop', ...COVER_SIZE, focus, upscale: false };
  return { kind: 'fit', maxSide: ARTICLE_MAX_SIDE };
}

async function watermarkText(db: Executor, access: ChannelAccess, fields: MediaFields): Promise<string | null> {
  if (fields.purpose !== 'article') return null;
  const wanted = fields.watermark === 'on' || (fields.watermark === 'auto' && access.channel.watermark_enabled === 1);
  if (!wanted) return null;
  const titles = await listChannelTranslations(db, [access.channel.id]);
  return titles.find((t) => t.language === access.channel.default_language)?.title ?? access.channel.slug;
}

async function processImage(deps: MediaDeps, image: ImageSource, shape: ImageShape, watermark: string | null, queueKey: string): Promise<ProcessedImage> {
  try {
    return await deps.media.processor.process(image, { shape, watermark, queueKey });
  } catch (error) {
    if (!(error instanceof ImageInputError)) throw error;
    const { width, height, format } = error.info;
    if (error.problem === 'too_many_pixels') {
      const size = width && height ? `${width} × ${height} (${Math.round((width * height) / 100_000) / 10} megapixels)` : 'larger than the limit';
      throw new PressroomError(
        'IMAGE_TOO_MANY_PIXELS',
        `The image is ${size}; the service decodes at most ${deps.media.limits.maxPixels / 1_000_000} megapixels. Resize it (for example to 6000 × 4000 or smaller) and send it again.`,
      );
    }
    if (error.problem === 'too_complex') {
      throw new PressroomError(
        'IMAGE_TOO_COMPLEX',
        'The image is a progressive JPEG of more than 100 scans, the most the service decodes (an ordinary progressive JPEG has about 10; each scan makes the decoder walk the whole picture again). Save it again as a baseline JPEG or as PNG (any image editor\'s "Save as") and send it again.',
      );
    }
    if (error.problem === 'unsupported_format') {
      throw new PressroomError('IMAGE_FORMAT_UNSUPPORTED', `The image is ${format?.toUpperCase() ?? 'in an unknown format'}, which is not accepted for upload. Send a JPEG, PNG, WebP, GIF, AVIF or TIFF image instead.`);
    }
    throw new PressroomError('IMAGE_UNREADABLE');
  }
}

/** The stored name of a processed image. */
function fileNameFor(channel: string, fields: MediaFields, article: string | null, short: string): string {
  if (fields.purpose === 'channel_avatar') return channelFileName(channel, 'avatar', short);
  if (fields.purpose === 'channel_cover') return channelFileName(channel, 'cover', short);
  return article ? articleFileName(channel, article, short) : draftFileName(channel, short);
}

/** Inserts the row, or refreshes the row of an identical earlier upload (same name, same bytes). */
async function saveRow(
  trx: Executor,
  existing: MediaRow | undefined,
  row: NewMediaRow & Pick<MediaRow, 'alt' | 'draft' | 'focus_x' | 'focus_y' | 'article_id' | 'created_at' | 'feed_file_name'>,
): Promise<MediaRow> {
  if (!existing) return insertMedia(trx, row);
  const patch = {
    alt: row.alt,
    focus_x: row.focus_x,
    focus_y: row.focus_y,
    article_id: row.article_id ?? existing.article_id,
    feed_file_name: row.feed_file_name ?? existing.feed_file_name,
    // A draft uploaded again starts its cleanup age afresh.
    ...(row.draft === 1 && { created_at: row.created_at }),
  };
  await updateMedia(trx, existing.id, patch);
  return { ...existing, ...patch };
}

/**
 * Handles one upload.
 * @throws PressroomError VALIDATION_FAILED, IMAGE_TOO_LARGE, IMAGE_TOO_MANY_PIXELS, IMAGE_UNREADABLE,
 * IMAGE_FORMAT_UNSUPPORTED, ARTICLE_NOT_FOUND (page_slug), and the access errors.
 * @param rules what the caller asks beyond the API's rules (the dashboard: alt text required on article images).
 */
export async function uploadMedia(deps: MediaDeps, principal: Principal, channelSlug: string, input: UploadInput, rules: UploadRules = {}): Promise<ImageView> {
  requireApiPublishing(principal);
  const { fields, image } = readUploadInput(input, rules);
  checkCombination(fields);
  const { maxImageBytes } = deps.media.limits;
  if (image.size > maxImageBytes) {
    throw new PressroomError(
      'IMAGE_TOO_LARGE',
      `The image file is ${megabytes(image.size)} (${image.size} bytes); the most accepted is ${megabytes(maxImageBytes)} (${maxImageBytes} bytes). Send a smaller file: compress it or reduce its dimensions first.`,
    );
  }
  const access = await channelAccess(deps.db, principal, channelSlug);
  requireRight(access, fields.purpose);
  const article = fields.page_slug === undefined ? null : await findArticleBySlug(deps.db, access.channel.id, fields.page_slug);
  if (fields.page_slug !== undefined && !article) {
    const message = `No article "${fields.page_slug}" exists in the channel "${channelSlug}". Create the article first, or leave page_slug out to upload a draft image.`;
    throw new PressroomError('ARTICLE_NOT_FOUND', message, { fields: { page_slug: message } });
  }

  const processed = await processImage(deps, () => image.bytes(), shapeFor(fields), await watermarkText(deps.db, access, fields), String(principal.accountId));
  const hash = contentHash(processed.data);
  const fileName = fileNameFor(access.channel.slug, fields, article?.slug ?? null, hash.short);
  // The file is in place before its row commits, so no URL the API hands out ever 404s.
  await deps.media.storage.write(fileName, processed.data);
  // The avatar's PNG rendition for RSS `<image>` (docs/MEDIA.md), written before its row like the image itself.
  const feedFileName = fields.purpose === 'channel_avatar' ? feedImageFileName(fileName) : null;
  if (feedFileName) await deps.media.storage.write(feedFileName, await deps.media.processor.pngRendition(processed.data));

  return deps.db.transaction().execute(async (trx) => {
    const current = await channelAccess(trx, principal, channelSlug);
    requireRight(current, fields.purpose);
    const now = isoNow(deps.clock);
    const row = await saveRow(trx, await findMediaByFileName(trx, fileName), {
      channel_id: current.channel.id,
      article_id: article?.id ?? null,
      purpose: fields.purpose,
      file_name: fileName,
      alt: fields.alt,
      width: processed.width,
      height: processed.height,
      bytes: processed.data.length,
      watermark_applied: processed.watermarked ? 1 : 0,
      watermark_type: processed.watermarked ? WATERMARK_TYPE_CHANNEL_NAME : WATERMARK_TYPE_NONE,
      created_at: now,
      content_hash: hash.hex,
      focus_x: fields.position_x,
      focus_y: fields.position_y,
      draft: fields.purpose === 'article' && !article ? 1 : 0,
      feed_file_name: feedFileName,
    });
    if (fields.purpose !== 'article') {
      const column = fields.purpose === 'channel_avatar' ? 'avatar_media_id' : 'cover_media_id';
      await updateChannel(trx, current.channel.id, { [column]: row.id, updated_at: now });
      await announcePublicChange(trx, { kind: 'channel', channelId: current.channel.id }, now);
    }
    return toImageView(row, deps.urls, fields.alt);
  });
}

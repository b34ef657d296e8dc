/**
 * Renders again the bodies whose kept rendering another renderer made (or
 * none: rows older than migrations 0006, 0007 and 0012), and keeps the new
 * one, so that no read has to store what it renders (`currentRendering`).
 * Runs when the service starts and before `npm run build`, after the
 * migrations and before the first build: a renderer change
 * (`BODY_RENDER_VERSION`) is then paid once, like a migration, and reads
 * never write.
 *
 * Each batch is rendered outside any transaction (on the body pool's
 * threads when the caller gives `render`) and kept in a short one of its
 * own, so a service beside it is never held up for long; a translation
 * saved meanwhile keeps the rendering its save made.
 *
 * Once every body is found current, the database records for which renderer
 * and schema (`renderingsStamp`), and later starts of the same code skip the
 * search: counting the stale rows reads the head of every translation and
 * revision, 82 s on a cold page cache at 100,000 × 2 (issue 36: the start's
 * work must not grow with the site). Every save renders with the current
 * renderer, so nothing can become stale until the renderer or the schema
 * changes, which changes the stamp. (Rows an older version wrote after a
 * newer one had stamped, in a downgrade, are still rendered right when read,
 * by `currentRendering`; only not kept until the next renderer change.)
 * @module
 */
import { imageSlice } from '../body/article-image.ts';
import { BODY_RENDER_VERSION, keptColumns, renderMarkdownBody, type RenderedBody } from '../body/index.ts';
import type { Db } from '../../store/database.ts';
import { readSetting, writeSetting } from '../../store/instance-setting.repository.ts';
import { migrations } from '../../store/migrations/index.ts';
import {
  copyRenderingsFromRevisions,
  countStaleBodies,
  keepRevisionRendering,
  keepTranslationRendering,
  listStaleRevisions,
  listStaleTranslations,
  type StaleBody,
} from '../../store/kept-rendering.repository.ts';

/** Rows rendered between two writes (a body renders in about a millisecond). */
const BATCH = 200;

/** The instance setting that records for what the kept renderings were last found complete. */
export const RENDERINGS_STAMP_KEY = 'renderings_complete_for';

/** The renderer and the schema (its migrations) the kept renderings are complete for, once refreshed. */
export function renderingsStamp(): string {
  return `renderer ${BODY_RENDER_VERSION}, ${Object.keys(migrations).length} migrations`;
}

/** What a refresh did. */
export interface RefreshReport {
  readonly translations: number;
  readonly revisions: number;
}

/**
 * Renders and keeps every stale body.
 * @param onProgress called before the first batch with the totals, and after each batch with the counts done.
 */
export async function refreshRenderings(
  db: Db,
  onProgress: (done: number, total: number) => void = () => undefined,
  render: (markdown: string) => RenderedBody | Promise<RenderedBody> = renderMarkdownBody,
): Promise<RefreshReport> {
  const version = BODY_RENDER_VERSION;
  const stamp = renderingsStamp();
  if ((await readSetting(db, RENDERINGS_STAMP_KEY)) === stamp) return { translations: 0, revisions: 0 };
  const stale = await countStaleBodies(db, version);
  const total = stale.translations + stale.revisions;
  if (total === 0) {
    await writeSetting(db, RENDERINGS_STAMP_KEY, stamp);
    return { translations: 0, revisions: 0 };
  }
  onProgress(0, total);
  let done = 0;
  // Revisions first: a translation whose current revision holds the same Markdown then takes its rendering
  // in one statement, instead of rendering the same body a second time.
  const revisions = await inBatches(
    (after) => listStaleRevisions(db, version, after, BATCH),
    async (rows) => {
      const rendered = await Promise.all(
        rows.map(async (row) => {
          const body = await render(row.content_markdown);
          return { row, kept: { ...keptColumns(body), image_html: imageSlice(body.html) ?? '' } };
        }),
      );
      await db.transaction().execute(async (trx) => {
        for (const { row, kept } of rendered) await keepRevisionRendering(trx, row.id, kept);
      });
      onProgress((done += rows.length), total);
    },
  );
  const copied = await copyRenderingsFromRevisions(db, version);
  if (copied > 0) onProgress((done += copied), total);
  const rendered = await inBatches(
    (after) => listStaleTranslations(db, version, after, BATCH),
    async (rows) => {
      const kept = await Promise.all(rows.map(async (row) => ({ row, kept: keptColumns(await render(row.content_markdown)) })));
      await db.transaction().execute(async (trx) => {
        for (const { row, kept: columns } of kept) await keepTranslationRendering(trx, row.id, row.content_markdown, columns);
      });
      onProgress((done += rows.length), total);
    },
  );
  const translations = copied + rendered;
  await writeSetting(db, RENDERINGS_STAMP_KEY, stamp);
  return { translations, revisions };
}

/** Reads `next` batches by ascending id until one comes back empty; returns how many rows `each` was given. */
async function inBatches(next: (afterId: number) => Promise<StaleBody[]>, each: (rows: StaleBody[]) => Promise<void>): Promise<number> {
  let after = 0;
  let count = 0;
  for (let rows = await next(after); rows.length > 0; rows = await next(after)) {
    await each(rows);
    count += rows.length;
    after = rows[rows.length - 1]!.id;
  }
  return count;
}

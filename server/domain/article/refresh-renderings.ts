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
 * @module
 */
import { imageSlice } from '../body/article-image.ts';
import { BODY_RENDER_VERSION, keptColumns, renderMarkdownBody, type RenderedBody } from '../body/index.ts';
import type { Db } from '../../store/database.ts';
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
  const stale = await countStaleBodies(db, version);
  const total = stale.translations + stale.revisions;
  if (total === 0) return { translations: 0, revisions: 0 };
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

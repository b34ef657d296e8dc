/**
 * The build worker's side of a shared render pool (issue 38): the job
 * handler with which `npm run worker` renders a builder's batches
 * (`shared-render-pool.ts`). It takes the batch's row, checks that its
 * output folder holds the builder's mark for this run and that it renders
 * with the builder's fingerprint, renders on its own render threads
 * (`render-pool.ts`, with the builder's site settings) and writes the
 * answer to the row. A batch it must refuse is answered with the reason,
 * which the builder logs before rendering the batch itself.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { describeError } from '../../describe-error.ts';
import type { Logger } from '../../logger.ts';
import { ensureSiteBuild } from '../../render/astro-compile.ts';
import type { Db } from '../../store/database.ts';
import { answerRenderBatch, takeRenderBatch } from '../../store/postgres/render-batches.ts';
import { renderCodeFingerprint } from '../builder/owner-inputs.ts';
import { createRenderPool, type RenderPool } from './render-pool.ts';
import { MARK_PREFIX } from './shared-render-pool.ts';

const jobPayload = z.object({ batch: z.coerce.number().int().positive() });

const batchPayload = z.object({
  ids: z.array(z.number().int()),
  known: z.record(z.string(), z.string()),
  fresh: z.boolean(),
  settings: z.object({
    publicUrl: z.string(),
    dashboardUrl: z.string(),
    site: z.object({ baseUrl: z.string(), name: z.string(), contentSignal: z.string(), socialCards: z.boolean() }),
    fingerprint: z.string(),
    mark: z.string().startsWith(MARK_PREFIX).regex(/^[\w.-]+$/),
  }),
});

/** The handler and what it holds. */
export interface BatchRenderer {
  /** The `render_articles` job handler of the runner `runnerId` (the batch's row names who took it). */
  handlerFor(runnerId: string): (payload: unknown) => Promise<void>;
  /** Batches this process takes at once, one per runner (two per render thread: one renders while the next is read). */
  readonly lanes: number;
  /** Stops the render threads. */
  close(): Promise<void>;
}

/**
 * Makes the handler of a worker on `db` (compiling the site if its build
 * is not current, as a server does at start).
 */
export async function createBatchRenderer(deps: { db: Db; config: Config; projectRoot: string; log: Logger }): Promise<BatchRenderer> {
  const { db, config, log } = deps;
  const { buildDir, hash } = await ensureSiteBuild(deps.projectRoot, { log: (line) => log.info(line) });
  const fingerprint = `${renderCodeFingerprint()}:${hash}`;
  let pool: { key: string; made: Promise<RenderPool> } | null = null;

  const poolFor = (settings: z.infer<typeof batchPayload>['settings']): Promise<RenderPool> => {
    const key = JSON.stringify([settings.publicUrl, settings.dashboardUrl, settings.site]);
    if (pool?.key === key) return pool.made;
    const previous = pool;
    const made = (async () => {
      await previous?.made.then((p) => p.close()).catch(() => undefined);
      return createRenderPool(
        { database: config.database, publicUrl: settings.publicUrl, dashboardUrl: settings.dashboardUrl, astroBuildDir: buildDir, outputDir: config.outputDir, site: settings.site, cardCacheDir: config.cardCacheDir },
        config.buildWorkers,
      );
    })();
    pool = { key, made };
    return made;
  };

  /** Why this worker must not render the batch, or null. */
  const refusal = (runnerId: string, settings: z.infer<typeof batchPayload>['settings']): string | null => {
    if (settings.fingerprint !== fingerprint) {
      return `build worker ${runnerId} runs other code or templates than the builder (render fingerprint ${fingerprint.slice(0, 12)}…, the builder's ${settings.fingerprint.slice(0, 12)}…): run the same release on every machine`;
    }
    if (!fs.existsSync(path.join(config.outputDir, settings.mark))) {
      return `build worker ${runnerId} writes into ${config.outputDir}, which is not the builder's output folder (its mark ${settings.mark} is not there): give the worker the server's folder as PRESSROOM_OUTPUT_DIR (a shared volume, docs/DEPLOYING.md)`;
    }
    return null;
  };

  return {
    lanes: Math.max(1, config.buildWorkers) * 2,
    handlerFor: (runnerId) => async (payload) => {
      const { batch } = jobPayload.parse(payload);
      const row = await takeRenderBatch(db, batch, runnerId);
      // Cancelled by the builder, or already answered by a worker that was thought dead: nothing to do.
      if (row === null) return;
      const parsed = batchPayload.safeParse(row);
      if (!parsed.success) {
        await answerRenderBatch(db, batch, { error: `build worker ${runnerId} could not read the batch (another release?): ${parsed.error.issues[0]?.message ?? 'invalid'}` });
        return;
      }
      const { ids, known, fresh, settings } = parsed.data;
      const refused = refusal(runnerId, settings);
      if (refused) {
        log.error('refused a batch of the builder', { batch, reason: refused });
        await answerRenderBatch(db, batch, { error: refused });
        return;
      }
      const started = performance.now();
      let answer: { results: unknown } | { error: string };
      try {
        answer = { results: await (await poolFor(settings)).render(ids, known, fresh) };
      } catch (error) {
        answer = { error: `build worker ${runnerId} failed to render: ${describeError(error, { stack: true })}` };
        // A pool whose thread failed answers every batch with that failure: the next batch starts new threads.
        const broken = pool;
        pool = null;
        void broken?.made.then((p) => p.close()).catch(() => undefined);
      }
      const kept = await answerRenderBatch(db, batch, answer);
      log.debug('rendered a batch', { batch, articles: ids.length, ms: Math.round(performance.now() - started), kept });
    },
    async close() {
      await pool?.made.then((p) => p.close()).catch(() => undefined);
      pool = null;
    },
  };
}

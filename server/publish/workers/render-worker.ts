/**
 * Entry point of a render worker (`render-pool.ts`): builds its own store
 * handle, public model and renderers from `workerData`, then answers each
 * message `{ id, ids, known, fresh }` with `renderArticles` for those ids.
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createAstroRenderer } from '../../render/astro-renderer.ts';
import { createRenderers } from '../../render/renderers.ts';
import { createCardRenderer } from '../../render/social-card.ts';
import { openDatabase } from '../../store/database.ts';
import { createPublicUrls } from '../../urls/public-urls.ts';
import { renderArticles } from '../builder/article-render.ts';
import { createBodyCache } from '../../read-model/body-cache.ts';
import { createPublicModel } from '../../read-model/public-model.ts';
import type { RenderWorkerData } from './render-pool.ts';
import { describeError } from '../../describe-error.ts';

const data = workerData as RenderWorkerData;
const port = parentPort!;

try {
  const db = openDatabase(data.database, { thread: true });
  const context = {
    // Bodies come rendered from the store; one without a current stored body is rendered once and stored,
    // so no cache (it would hold every body of the site).
    model: createPublicModel({ db, urls: createPublicUrls(data.publicUrl, data.dashboardUrl), cache: createBodyCache(0) }),
    renderers: createRenderers(await createAstroRenderer(data.astroBuildDir), createCardRenderer({ cacheDir: data.cardCacheDir ?? null })),
    site: data.site,
    outputDir: data.outputDir,
  };
  port.on('message', async (message: { id: number; ids: number[]; known: Record<string, string>; fresh: boolean }) => {
    try {
      port.postMessage({ id: message.id, results: await renderArticles(context, message.ids, (p) => message.known[p], message.fresh) });
    } catch (error) {
      port.postMessage({ id: message.id, error: describeError(error, { stack: true }) });
    }
  });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ error: describeError(error, { stack: true }) });
}

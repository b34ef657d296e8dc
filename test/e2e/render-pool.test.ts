/**
 * The render workers (`server/publish/workers/render-pool.ts`) produce
 * exactly what the builder's own thread does: the same owners, bytes and
 * hashes, over a real store and Astro build. Integration: the workers start
 * the compiled Astro site in threads, which takes seconds, so this lives
 * with the end-to-end suite.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAstroRenderer } from '../../server/render/astro-renderer.ts';
import { createCardRenderer } from '../../server/render/social-card.ts';
import { createRenderers } from '../../server/render/renderers.ts';
import { ensureSiteBuild } from '../../server/render/astro-compile.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { createPublicUrls } from '../../server/urls/public-urls.ts';
import { renderArticles } from '../../server/publish/builder/article-render.ts';
import { createPublicModel } from '../../server/read-model/public-model.ts';
import { createRenderPool } from '../../server/publish/workers/render-pool.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';

let t: TestService;
let buildDir: string;
const site = { baseUrl: 'http://pressroom.test', name: 'Pressroom', contentSignal: '', socialCards: true };
const urls = { publicUrl: 'http://pressroom.test', dashboardUrl: 'http://pressroom.test/dashboard' };

beforeAll(async () => {
  ({ buildDir } = await ensureSiteBuild(PROJECT_ROOT));
  t = await startTestService({ PRESSROOM_IMPORT_CONTENT: 'true', PRESSROOM_CONTENT_DIR: path.join(PROJECT_ROOT, 'content') });
}, 180_000);
afterAll(async () => t?.stop());

describe('render pool', () => {
  it('renders and writes the same files as the builder thread', async () => {
    const ids = (await t.service.db.selectFrom('articles').select('id').execute()).map((r) => r.id);
    expect(ids.length).toBeGreaterThan(0);
    const here = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-pool-a-'));
    const there = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-pool-b-'));
    try {
      const model = createPublicModel({ db: t.service.db, urls: createPublicUrls(urls.publicUrl, urls.dashboardUrl) });
      const renderers = createRenderers(await createAstroRenderer(buildDir), createCardRenderer({ cacheDir: null }));
      const local = await renderArticles({ model, renderers, site, outputDir: here }, [...ids, 999_999]);
      const pool = await createRenderPool({ database: t.config.database, ...urls, astroBuildDir: buildDir, outputDir: there, site }, 2);
      try {
        const remote = [...(await pool.render(ids.slice(0, 1), {})), ...(await pool.render([...ids.slice(1), 999_999], {}))];
        expect(remote).toEqual(local);
        expect(local.at(-1)).toEqual({ id: 999_999, head: null, textStarts: {}, files: [] });
        for (const file of local.flatMap((r) => r.files)) expect(fs.readFileSync(path.join(there, file.path))).toEqual(fs.readFileSync(path.join(here, file.path)));
      } finally {
        await pool.close();
      }
    } finally {
      fs.rmSync(here, { recursive: true, force: true });
      fs.rmSync(there, { recursive: true, force: true });
    }
  }, 120_000);

  it('with `fresh`, writes each file without looking for one already there', async () => {
    const ids = (await t.service.db.selectFrom('articles').select('id').limit(1).execute()).map((r) => r.id);
    const there = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-pool-fresh-'));
    const pool = await createRenderPool({ database: t.config.database, ...urls, astroBuildDir: buildDir, outputDir: there, site }, 1);
    try {
      const first = await pool.render(ids, {});
      expect(first[0]!.files.every((f) => f.written)).toBe(true);
      // The same bytes are there now: compared, they are left alone; with `fresh`, written again.
      expect((await pool.render(ids, {}))[0]!.files.some((f) => f.written)).toBe(false);
      const again = await pool.render(ids, {}, true);
      expect(again[0]!.files.every((f) => f.written)).toBe(true);
      expect(again).toEqual(first);
    } finally {
      await pool.close();
      fs.rmSync(there, { recursive: true, force: true });
    }
  }, 120_000);
});

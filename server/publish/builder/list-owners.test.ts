/**
 * Applying list owners (`list-owners.ts`) over a real SQLite file, a real
 * output folder and the real JSON, feed and sitemap renderers; only the HTML
 * renderer (Astro) is a small stand-in, all from the builder fixture
 * (`test/support/builder-fixture.ts`) the builder's own tests use. The build
 * context is wired as `createSiteBuilder` wires it, so `applyOwner` and the
 * channel, cursor-page and site owners run as a build runs them, one step at a
 * time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openBuilderFixture, STAND_IN_CARDS, type BuilderFixture } from '../../../test/support/builder-fixture.ts';
import { applyChannelUpdate } from '../../domain/channel/channel.service.ts';
import { createCursorCodec } from '../../domain/cursor.ts';
import { createLogger } from '../../logger.ts';
import { createSyncOutputQueue } from '../../output/output-queue.ts';
import { createPublicModel } from '../../read-model/public-model.ts';
import { createRenderers, type Renderers } from '../../render/renderers.ts';
import { staticFiles } from '../../serving/static-files.ts';
import { ensureBuildOwners, readBuildOwners } from '../../store/build-owner.repository.ts';
import { findChannelBySlug } from '../../store/channel.repository.ts';
import { readListAnchors } from '../../store/list-anchor.repository.ts';
import * as manifest from '../../store/output-file.repository.ts';
import { ensureIndex } from './article-owners.ts';
import type { BuildContext } from './build-context.ts';
import { emptyReport, type BuildReport } from './build-report.ts';
import { BuilderState } from './builder-state.ts';
import { checkOutput, knownOutput } from './known-output.ts';
import { applyListOwners, applyOwner, NARROW_PAGES_MAX } from './list-owners.ts';
import { createManifestBatch, type ManifestBatch } from './manifest-batch.ts';
import { createReaderTurns } from './reader-turns.ts';
import { channelOwner, pagesOwner, SITE_OWNER, type PlannedFile } from './site-plan.ts';

const cursors = createCursorCodec('list-owners-test-secret-0123456789');

let f: BuilderFixture;
beforeEach(async () => {
  f = await openBuilderFixture('pressroom-list-owners-');
});
afterEach(() => f.close());

/** Renderers that count the cursor pages they render (a list page whose address names a cursor). */
function countingRenderers(): Renderers & { cursorPages: number; channelPages: number } {
  const base = createRenderers(f.html, STAND_IN_CARDS);
  const counting = {
    ...base,
    cursorPages: 0,
    channelPages: 0,
    articleList: (...args: Parameters<Renderers['articleList']>) => {
      if (args[3].selfUrl.includes('cursor=')) counting.cursorPages++;
      return base.articleList(...args);
    },
    channelHtml: (...args: Parameters<Renderers['channelHtml']>) => {
      counting.channelPages++;
      return base.channelHtml(...args);
    },
  };
  return counting;
}

/** A build context wired as `createSiteBuilder` wires one: a new one is a new process's builder (empty memory). */
function makeContext(renderers: Renderers = createRenderers(f.html, STAND_IN_CARDS)): BuildContext {
  const model = createPublicModel({ db: f.db, urls: f.urls });
  const output = createSyncOutputQueue(f.outputDir);
  return {
    deps: { db: f.db, clock: f.clock, model, renderers, cursors, outputDir: f.outputDir, site: f.site, channelsUrl: f.urls.channelsJson(), log: createLogger('silent') },
    state: new BuilderState(),
    output,
    fingerprint: 'list-owners-test',
    articles: { model, renderers, site: f.site, outputDir: f.outputDir, files: output },
    ready: ensureBuildOwners(f.db),
    placedListeners: [],
    turns: createReaderTurns(),
  };
}

/** A batch and report for one step, with the article index loaded (its article owners applied). */
async function step(ctx: BuildContext): Promise<{ batch: ManifestBatch; report: BuildReport }> {
  const batch = createManifestBatch(f.db, f.clock, ctx.output);
  const report = emptyReport();
  await ensureIndex(ctx, report, batch);
  return { batch, report };
}

const recorded = async (owner: string) => [...(await manifest.filesOfOwners(f.db, [owner])).keys()].sort();
const isCursorPage = (p: string) => p.includes('/_cursor/');

describe('applyOwner', () => {
  const owner = channelOwner(999);
  let renders: string[];
  /** A planned file that notes each render. */
  const file = (p: string, text: string, inputs?: unknown[]): PlannedFile => ({ path: p, inputs, render: () => (renders.push(p), text) });
  beforeEach(() => {
    renders = [];
  });

  async function apply(ctx: BuildContext, planned: PlannedFile[], how: Parameters<typeof applyOwner>[5] = {}): Promise<BuildReport> {
    const batch = createManifestBatch(f.db, f.clock, ctx.output);
    const report = emptyReport();
    await applyOwner(ctx, owner, planned, report, batch, how);
    await batch.flush();
    return report;
  }

  it('writes and records new files, then leaves files whose inputs are the same objects unrendered', async () => {
    const ctx = makeContext();
    const inputs = [{ any: 'object' }];
    const first = await apply(ctx, [file('x/a.json', 'A', inputs), file('x/b.json', 'B', inputs)]);
    expect({ written: first.written, changed: first.changedPaths }).toEqual({ written: 2, changed: ['x/a.json', 'x/b.json'] });
    expect(f.read('x/a.json')).toBe('A');
    expect(await recorded(owner)).toEqual(['x/a.json', 'x/b.json']);
    renders = [];
    const again = await apply(ctx, [file('x/a.json', 'A', inputs), file('x/b.json', 'B', inputs)]);
    expect(renders).toEqual([]);
    expect({ written: again.written, unchanged: again.unchanged }).toEqual({ written: 0, unchanged: 2 });
  });

  it('renders a file without inputs every time, but does not write bytes that did not change', async () => {
    const ctx = makeContext();
    await apply(ctx, [file('x/a.json', 'A')]);
    const again = await apply(ctx, [file('x/a.json', 'A')]);
    expect(renders).toEqual(['x/a.json', 'x/a.json']);
    expect({ written: again.written, unchanged: again.unchanged }).toEqual({ written: 0, unchanged: 1 });
  });

  it('renders and writes again a file that went missing, though the memo says its inputs did not change', async () => {
    const ctx = makeContext();
    const inputs = [1];
    await apply(ctx, [file('x/a.json', 'A', inputs)]);
    fs.rmSync(path.join(f.outputDir, 'x/a.json'));
    const again = await apply(ctx, [file('x/a.json', 'A', inputs)]);
    expect(again.changedPaths).toEqual(['x/a.json']);
    expect(f.read('x/a.json')).toBe('A');
  });

  it('deletes what the owner no longer produces, unless the plan is only part of it (`some`)', async () => {
    const ctx = makeContext();
    await apply(ctx, [file('x/a.json', 'A'), file('x/b.json', 'B'), file('x/c.json', 'C')]);
    const partial = await apply(ctx, [file('x/a.json', 'A2')], { some: true });
    expect({ written: partial.written, removed: partial.removed }).toEqual({ written: 1, removed: 0 });
    expect(await recorded(owner)).toEqual(['x/a.json', 'x/b.json', 'x/c.json']);
    const whole = await apply(ctx, [file('x/a.json', 'A2'), file('x/b.json', 'B')]);
    expect({ removed: whole.removed, changed: whole.changedPaths }).toEqual({ removed: 1, changed: ['x/c.json'] });
    expect(f.exists('x/c.json')).toBe(false);
    expect(await recorded(owner)).toEqual(['x/a.json', 'x/b.json']);
  });

  it('skips rendering an owner whose input hash is as recorded, with every file planned and in place; records the hash with the files', async () => {
    const planned = () => [file('x/a.json', 'A'), file('x/b.json', 'B')];
    await apply(makeContext(), planned(), { inputHash: 'h1' });
    expect((await readBuildOwners(f.db, [owner])).get(owner)).toEqual({ inputHash: 'h1', textStarts: {} });
    renders = [];
    const known = knownOutput(await checkOutput(f.db, f.outputDir));
    // A new process (empty memo): only the recorded hash can vouch for the files.
    const skipped = await apply(makeContext(), planned(), { inputHash: 'h1', recordedInputHash: 'h1', known });
    expect(renders).toEqual([]);
    expect({ written: skipped.written, unchanged: skipped.unchanged }).toEqual({ written: 0, unchanged: 2 });
  });

  it.each([
    { name: 'the input hash changed', hash: 'h2', lose: null, plan: ['x/a.json', 'x/b.json'] },
    { name: 'a recorded file went missing', hash: 'h1', lose: 'x/b.json', plan: ['x/a.json', 'x/b.json'] },
    { name: 'the plan names a new file', hash: 'h1', lose: null, plan: ['x/a.json', 'x/b.json', 'x/c.json'] },
    { name: 'the plan drops a file', hash: 'h1', lose: null, plan: ['x/a.json'] },
  ])('renders the owner when $name', async ({ hash, lose, plan }) => {
    await apply(makeContext(), [file('x/a.json', 'A'), file('x/b.json', 'B')], { inputHash: 'h1' });
    if (lose) fs.rmSync(path.join(f.outputDir, lose));
    renders = [];
    const known = knownOutput(await checkOutput(f.db, f.outputDir));
    await apply(makeContext(), plan.map((p) => file(p, p)), { inputHash: hash, recordedInputHash: 'h1', known });
    expect(renders).toEqual(plan);
    expect((await readBuildOwners(f.db, [owner])).get(owner)?.inputHash).toBe(hash);
  });

  it('forgets the recorded input hash when applied without one (an incremental build vouches for nothing)', async () => {
    await apply(makeContext(), [file('x/a.json', 'A')], { inputHash: 'h1' });
    await apply(makeContext(), [file('x/a.json', 'A')]);
    expect(await readBuildOwners(f.db, [owner])).toEqual(new Map());
  });
});

describe('applyListOwners', () => {
  it('produces the channel\u2019s lists, a cursor page per anchor of each list, and the site files, each under its owner', async () => {
    await f.publishMany(2);
    const ctx = makeContext();
    const { batch, report } = await step(ctx);
    await applyListOwners(ctx, [f.channelId], report, batch);
    await batch.flush();
    const channelFiles = await recorded(channelOwner(f.channelId));
    expect(channelFiles).toEqual(
      expect.arrayContaining([
        staticFiles.channelHtml('news'),
        staticFiles.channelHtml('news', 'en'),
        staticFiles.rss('news'),
        staticFiles.jsonFeed('news', 'en'),
        staticFiles.channelJson('news'),
        staticFiles.channelArticlesJson('news'),
        staticFiles.channelSitemap('news'),
        staticFiles.channelLlms('news'),
      ]),
    );
    expect(channelFiles.some(isCursorPage)).toBe(false);
    // Two lists (every language, and English), each article an anchor with the page after it.
    const pages = await recorded(pagesOwner(f.channelId));
    expect(pages).toHaveLength(4);
    expect(pages.every(isCursorPage)).toBe(true);
    expect([...(await readListAnchors(f.db)).values()].map((anchors) => anchors.length)).toEqual(expect.arrayContaining([2, 2]));
    expect(await recorded(SITE_OWNER)).toEqual(expect.arrayContaining(['index.html', 'sitemap.xml', 'robots.txt', 'llms.txt', '404.html', 'favicon.svg', staticFiles.channelsJson()]));
    expect(f.read(staticFiles.channelHtml('news'))).toBe('<h1>News</h1><li>Article 1</li><li>Article 0</li>');
    expect(f.read('index.html')).toContain('<li>Article 1</li>');
  });

  it('gives a new channel without articles its pages and empty lists, and no cursor page', async () => {
    const ctx = makeContext();
    const { batch, report } = await step(ctx);
    await applyListOwners(ctx, [f.channelId], report, batch);
    await batch.flush();
    expect(f.read(staticFiles.channelHtml('news'))).toBe('<h1>News</h1>');
    expect(JSON.parse(f.read(staticFiles.channelArticlesJson('news')))).toMatchObject({ articles: [] });
    expect(await recorded(pagesOwner(f.channelId))).toEqual([]);
  });

  it('removes every list file of a channel that is no longer public (hidden)', async () => {
    await f.publishMany(2);
    {
      const ctx = makeContext();
      const { batch, report } = await step(ctx);
      await applyListOwners(ctx, [f.channelId], report, batch);
      await batch.flush();
    }
    const before = [...(await recorded(channelOwner(f.channelId))), ...(await recorded(pagesOwner(f.channelId)))];
    await f.db.transaction().execute(async (trx) => applyChannelUpdate(trx, f.clock, (await findChannelBySlug(trx, 'news'))!, { status: 'hidden' }));
    const ctx = makeContext();
    const { batch, report } = await step(ctx);
    await applyListOwners(ctx, [f.channelId], report, batch);
    await batch.flush();
    expect(await recorded(channelOwner(f.channelId))).toEqual([]);
    expect(await recorded(pagesOwner(f.channelId))).toEqual([]);
    expect(before.filter(f.exists)).toEqual([]);
    expect(report.changedPaths).toEqual(expect.arrayContaining(before));
    expect(ctx.state.pagesPlannedWith.has(f.channelId)).toBe(false);
  });

  it('in a full build, skips rendering list owners whose inputs hash as recorded, and renders them again once a file is missing', async () => {
    await f.publishMany(3);
    const full = async (renderers: Renderers) => {
      const ctx = makeContext(renderers);
      const { batch, report } = await step(ctx);
      await applyListOwners(ctx, [f.channelId], report, batch, { known: knownOutput(await checkOutput(f.db, f.outputDir)) });
      await batch.flush();
      return report;
    };
    const cold = countingRenderers();
    await full(cold);
    // Six cursor pages (three anchors in each of two lists); the default and English channel pages are one render.
    expect({ pages: cold.cursorPages, channel: cold.channelPages }).toEqual({ pages: 6, channel: 1 });
    expect([...(await readBuildOwners(f.db, [channelOwner(f.channelId), pagesOwner(f.channelId)])).keys()].sort()).toEqual([channelOwner(f.channelId), pagesOwner(f.channelId)].sort());
    // A new process's warm build: nothing of the channel is rendered or written.
    const warm = countingRenderers();
    const warmReport = await full(warm);
    expect({ pages: warm.cursorPages, channel: warm.channelPages }).toEqual({ pages: 0, channel: 0 });
    expect(warmReport.written).toBe(0);
    // One cursor page lost: that owner is rendered again, the channel owner still is not.
    fs.rmSync(path.join(f.outputDir, (await recorded(pagesOwner(f.channelId)))[0]!));
    const repair = countingRenderers();
    const repairReport = await full(repair);
    expect({ pages: repair.cursorPages, channel: repair.channelPages }).toEqual({ pages: 6, channel: 0 });
    expect(repairReport.written).toBe(1);
  });

  describe('with the changes of an incremental build', () => {
    /** A builder that planned the channel's pages whole once, as a previous build of this process did. */
    async function planned(renderers: ReturnType<typeof countingRenderers>) {
      const ctx = makeContext(renderers);
      const first = await step(ctx);
      await applyListOwners(ctx, [f.channelId], first.report, first.batch);
      await first.batch.flush();
      const group = ctx.state.index!.groups().get(f.channelId)!;
      renderers.cursorPages = 0;
      const next = await step(ctx);
      return { ctx, group, ...next };
    }

    it.each([
      // The newest is on the first page, which is the channel owner's: only the page of its own anchor, in each of two lists.
      { which: 'the newest', index: 0, pages: 2 },
      // The oldest shows on the pages of the 20 anchors before it, plus its own anchor's, in each list.
      { which: 'the oldest', index: 24, pages: 42 },
    ])('plans only the cursor pages around $which changed article, and removes none of the others', async ({ index, pages }) => {
      await f.publishMany(25);
      const renderers = countingRenderers();
      const { ctx, group, batch, report } = await planned(renderers);
      const pagesBefore = await recorded(pagesOwner(f.channelId));
      expect(pagesBefore).toHaveLength(50);
      const changed = renderers.listArticles(group, null)[index]!;
      await applyListOwners(ctx, [f.channelId], report, batch, { changes: new Map([[f.channelId, { group, articles: [{ before: changed, after: changed }] }]]) });
      await batch.flush();
      expect(renderers.cursorPages).toBe(pages);
      expect(await recorded(pagesOwner(f.channelId))).toEqual(pagesBefore);
      expect(report.removed).toBe(0);
    });

    it('plans no cursor page when no article of the channel changed, and keeps them all', async () => {
      await f.publishMany(3);
      const renderers = countingRenderers();
      const { ctx, group, batch, report } = await planned(renderers);
      const pagesBefore = await recorded(pagesOwner(f.channelId));
      await applyListOwners(ctx, [f.channelId], report, batch, { changes: new Map([[f.channelId, { group, articles: [] }]]) });
      await batch.flush();
      expect(renderers.cursorPages).toBe(0);
      expect(await recorded(pagesOwner(f.channelId))).toEqual(pagesBefore);
    });

    it.each([
      { name: `more than ${NARROW_PAGES_MAX} changed articles`, fresh: false, many: true },
      { name: 'a builder that never planned the pages whole', fresh: true, many: false },
    ])('plans every cursor page with $name', async ({ fresh, many }) => {
      await f.publishMany(3);
      const renderers = countingRenderers();
      let { ctx, group, batch, report } = await planned(renderers);
      if (fresh) {
        ctx = makeContext(renderers);
        ({ batch, report } = await step(ctx));
      }
      const a = group[0]!;
      const articles = Array.from({ length: many ? NARROW_PAGES_MAX + 1 : 1 }, () => ({ before: a, after: a }));
      await applyListOwners(ctx, [f.channelId], report, batch, { changes: new Map([[f.channelId, { group, articles }]]) });
      await batch.flush();
      expect(renderers.cursorPages).toBe(6);
    });
  });
});

/**
 * The refresh at start (`refresh-renderings.ts`) over a real migrated SQLite
 * file: bodies of another renderer are rendered again and kept, read
 * revisions only, a save that came first wins, and a second run finds
 * nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKey } from '../../admin/key-commands.ts';
import { createTestChannel, openTestDeps, publishTestArticle, type TestDeps } from '../../../test/support/admin-deps.ts';
import { imageSlice } from '../body/article-image.ts';
import { BODY_RENDER_VERSION, renderMarkdownBody } from '../body/index.ts';
import { keepTranslationRendering } from '../../store/kept-rendering.repository.ts';
import { readSetting, writeSetting } from '../../store/instance-setting.repository.ts';
import { refreshRenderings, renderingsStamp, RENDERINGS_STAMP_KEY } from './refresh-renderings.ts';

const BODY = 'A [link](../other) and ![a photo](/media/x.webp) in *one* body.';
const kept = { content_html: '<p>old</p>', content_text: 'old', body_version: 'old', link_targets: null };

let t: TestDeps;
beforeEach(async () => {
  t = await openTestDeps();
  await createKey(t, { account: 'ana', plan: 'pro' });
  await createTestChannel(t, 'ana', 'news');
  for (const slug of ['one', 'two', 'three']) {
    await publishTestArticle(t, 'ana', 'news', slug, { translations: [{ language: 'en', title: slug, content_markdown: BODY }] });
  }
});
afterEach(async () => t.cleanup());

const translations = () => t.db.selectFrom('article_translations').select(['id', 'content_markdown', 'content_html', 'content_text', 'body_version', 'link_targets']).orderBy('id').execute();
const revisions = () => t.db.selectFrom('revisions').select(['id', 'content_html', 'content_text', 'body_version', 'link_targets', 'image_html']).orderBy('id').execute();

describe('refreshRenderings', () => {
  it('does nothing when every body is of the current renderer', async () => {
    const before = [await translations(), await revisions()];
    const progress: number[][] = [];
    expect(await refreshRenderings(t.db, (done, total) => progress.push([done, total]))).toEqual({ translations: 0, revisions: 0 });
    expect([await translations(), await revisions()]).toEqual(before);
    expect(progress).toEqual([]);
  });

  it('records the renderings complete for this renderer and schema; the same code does not look again, another does', async () => {
    expect(await readSetting(t.db, RENDERINGS_STAMP_KEY)).toBeUndefined();
    expect(await refreshRenderings(t.db)).toEqual({ translations: 0, revisions: 0 });
    expect(await readSetting(t.db, RENDERINGS_STAMP_KEY)).toBe(renderingsStamp());
    expect(renderingsStamp()).toContain(`renderer ${BODY_RENDER_VERSION},`);
    // A row no save of this code can leave (an older version's, after a downgrade): not looked for again…
    await t.db.updateTable('article_translations').set(kept).where('id', '=', (await translations())[0]!.id).execute();
    expect(await refreshRenderings(t.db)).toEqual({ translations: 0, revisions: 0 });
    // …until the renderer or the schema changes, as a new version's stamp differs.
    await writeSetting(t.db, RENDERINGS_STAMP_KEY, 'renderer old, 20 migrations');
    expect(await refreshRenderings(t.db)).toEqual({ translations: 1, revisions: 0 });
    expect(await readSetting(t.db, RENDERINGS_STAMP_KEY)).toBe(renderingsStamp());
  });

  it.each([
    ['another renderer', kept],
    ['no renderer (before migration 0006)', { content_html: null, content_text: null, body_version: null, link_targets: null }],
  ])('renders again and keeps bodies of %s, with progress, then finds nothing', async (_name, stale) => {
    const fresh = [await translations(), await revisions()];
    await t.db.updateTable('article_translations').set(stale).execute();
    await t.db.updateTable('revisions').set({ ...stale, image_html: null }).execute();
    const progress: number[][] = [];
    expect(await refreshRenderings(t.db, (done, total) => progress.push([done, total]))).toEqual({ translations: 3, revisions: 3 });
    expect(progress[0]).toEqual([0, 6]);
    expect(progress.at(-1)).toEqual([6, 6]);
    expect([await translations(), await revisions()]).toEqual(fresh);
    const body = renderMarkdownBody(BODY);
    expect((await revisions())[0]).toMatchObject({ content_html: body.html, content_text: body.text, body_version: BODY_RENDER_VERSION, link_targets: body.links, image_html: imageSlice(body.html) });
    expect(await refreshRenderings(t.db)).toEqual({ translations: 0, revisions: 0 });
  });

  it('renders through the given renderer (the body pool\'s threads), with the same result', async () => {
    const fresh = [await translations(), await revisions()];
    await t.db.updateTable('article_translations').set(kept).execute();
    await t.db.updateTable('revisions').set({ ...kept, image_html: null }).execute();
    const asked: string[] = [];
    const render = async (markdown: string) => (asked.push(markdown), renderMarkdownBody(markdown));
    expect(await refreshRenderings(t.db, undefined, render)).toEqual({ translations: 3, revisions: 3 });
    // The revisions only: each translation took its current revision's rendering, the same Markdown.
    expect(asked).toHaveLength(3);
    expect([await translations(), await revisions()]).toEqual(fresh);
  });

  it('renders a revision older than migration 0012 (no image slice) again', async () => {
    await t.db.updateTable('revisions').set({ image_html: null, link_targets: null }).execute();
    expect(await refreshRenderings(t.db)).toEqual({ translations: 0, revisions: 3 });
    expect((await revisions()).every((r) => r.image_html !== null && r.link_targets === renderMarkdownBody(BODY).links)).toBe(true);
  });

  it('leaves history alone: a revision no translation shows or edits is not rendered again', async () => {
    const [first] = await revisions();
    const translation = await t.db.selectFrom('article_translations').select(['id', 'published_revision_id']).where('current_revision_id', '=', first!.id).executeTakeFirstOrThrow();
    const history = await t.db
      .insertInto('revisions')
      .values({ translation_id: translation.id, number: 0, title: 'old', excerpt: null, content_markdown: 'old', seo_title: null, seo_description: null, content_hash: 'h', moderation_state: 'superseded', moderation_reason: null, created_at: '2020-01-01T00:00:00.000Z', decided_at: null, ...kept, image_html: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await refreshRenderings(t.db)).toEqual({ translations: 0, revisions: 0 });
    expect(await t.db.selectFrom('revisions').select(['body_version']).where('id', '=', history.id).executeTakeFirstOrThrow()).toEqual({ body_version: 'old' });
  });

  it('keeps the rendering of a save that came first: a translation whose Markdown changed is not overwritten', async () => {
    await t.db.updateTable('article_translations').set(kept).execute();
    const [row] = await translations();
    // What a save between the refresh's read and its write leaves: new Markdown, its own rendering.
    const saved = renderMarkdownBody('Saved meanwhile.');
    await t.db.updateTable('article_translations').set({ content_markdown: 'Saved meanwhile.', content_html: saved.html, content_text: saved.text, body_version: BODY_RENDER_VERSION }).where('id', '=', row!.id).execute();
    await keepTranslationRendering(t.db, row!.id, row!.content_markdown, { content_html: '<p>stale</p>', content_text: 'stale', body_version: BODY_RENDER_VERSION, link_targets: null });
    expect((await translations())[0]).toMatchObject({ content_markdown: 'Saved meanwhile.', content_html: saved.html });
  });
});

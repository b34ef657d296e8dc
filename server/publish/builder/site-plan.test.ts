/**
 * The plans, pure: which files each owner produces for fixture models, with
 * a renderer set that names what it was asked for (the plans decide paths
 * and inputs; the renderers' bytes are tested beside them).
 */
import { describe, expect, it } from 'vitest';
import { createCursorCodec } from '../../domain/cursor.ts';
import { DEFAULT_LIST_LIMIT } from '../../read-model/list-pages.ts';
import { listArticlesFor } from '../../read-model/selection.ts';
import type { PublicArticleSummary } from '../../read-model/view-models.ts';
import { buildArticle, buildChannel, standardFixtures } from '../../../test/support/view-models.ts';
import type { Renderers } from '../../render/renderers.ts';
import { staticFiles } from '../../serving/static-files.ts';
import { homeArticles, PAGE_MAX_ARTICLES, planArticle, planArticlePages, planChannel } from './site-plan.ts';

const cursors = createCursorCodec('site-plan-test-secret-0123456789abcdef');
/** Renderers that answer with the call they got. */
const naming = new Proxy({ listArticles: listArticlesFor } as unknown as Renderers, {
  get: (target, name: string) => (name === 'listArticles' ? target.listArticles : (...args: unknown[]) => `${name}(${args.length})`),
});

describe('planArticle', () => {
  it('plans page, JSON and Markdown per published translation, plus the default-language copies, each rendered once', async () => {
    const { bilingual, site } = standardFixtures();
    const files = planArticle(bilingual, naming, site);
    expect(files.map((f) => f.path).sort()).toEqual(
      [
        'journal/en/hello-world.html',
        'journal/ar/hello-world.html',
        'journal/hello-world.html',
        'api/public/v1/channels/journal/articles/hello-world/_lang/en.json',
        'api/public/v1/channels/journal/articles/hello-world/_lang/ar.json',
        'api/public/v1/channels/journal/articles/hello-world.json',
        'api/public/v1/channels/journal/articles/hello-world/_lang/en.md',
        'api/public/v1/channels/journal/articles/hello-world/_lang/ar.md',
        'api/public/v1/channels/journal/articles/hello-world.md',
      ].sort(),
    );
    const byPath = new Map(files.map((f) => [f.path, f]));
    // The default copy shares its language's render.
    expect(byPath.get('journal/hello-world.html')!.render).toBe(byPath.get('journal/en/hello-world.html')!.render);
  });
});

describe('planChannel', () => {
  it('plans every language of the channel and of its articles, and names each list file\'s inputs', () => {
    const { channel, articles, site } = standardFixtures();
    const files = planChannel(channel, articles, naming, cursors, site);
    const paths = files.map((f) => f.path);
    for (const p of ['journal/index.html', 'journal/en/index.html', 'journal/ar/index.html', 'journal/rss.xml', 'journal/en/rss.xml', 'journal/ar/rss.xml', 'journal/sitemap.xml', 'journal/llms.txt']) {
      expect(paths, p).toContain(p);
    }
    expect(new Set(paths).size).toBe(paths.length);
    for (const f of files) expect(f.inputs, f.path).toBeDefined();
  });

  it('a language only articles have gets pages, lists and feeds but no channel document', () => {
    const { site } = standardFixtures();
    const channel = buildChannel({ id: 2, slug: 'solo', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Solo' }] });
    const french = buildArticle(channel, { id: 20, slug: 'bonjour', defaultLanguage: 'fr', translations: [{ language: 'fr', title: 'Bonjour', publishedAt: '2026-01-01T00:00:00.000Z' }] });
    const paths = planChannel(channel, [french], naming, cursors, site).map((f) => f.path);
    expect(paths).toContain('solo/fr/index.html');
    expect(paths).toContain('solo/fr/rss.xml');
    expect(paths).toContain(staticFiles.channelArticlesJson('solo', 'fr'));
    expect(paths).not.toContain(staticFiles.channelJson('solo', 'fr'));
    expect(paths).toContain(staticFiles.channelJson('solo', 'en'));
  });
});

describe('planArticlePages', () => {
  it('plans the page after each anchor, or only those at the given indexes', () => {
    const { channel } = standardFixtures();
    const many: PublicArticleSummary[] = Array.from({ length: DEFAULT_LIST_LIMIT * 2 + 5 }, (_, i) =>
      buildArticle(channel, { id: 100 + i, slug: `a-${i}`, defaultLanguage: 'en', translations: [{ language: 'en', title: `A ${i}`, publishedAt: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}T00:00:00.000Z` }] }),
    );
    const listed = listArticlesFor(many, null);
    const anchors = listed.map((a) => ({ p: a.publishedAt, id: a.id }));
    const all = planArticlePages(channel, null, listed, anchors, naming, cursors);
    expect(all).toHaveLength(anchors.length);
    expect(new Set(all.map((f) => f.path)).size).toBe(anchors.length);
    const some = planArticlePages(channel, null, listed, anchors, naming, cursors, [0, 3]);
    expect(some.map((f) => f.path)).toEqual([all[0]!.path, all[3]!.path]);
  });
});

describe('homeArticles', () => {
  it('takes the newest articles on the homepage from every channel, at most PAGE_MAX_ARTICLES', () => {
    const { articles } = standardFixtures();
    const groups = new Map([[1, articles as readonly PublicArticleSummary[]]]);
    const home = homeArticles(groups, naming);
    expect(home.length).toBeLessThanOrEqual(PAGE_MAX_ARTICLES);
    expect(home.map((a) => a.id)).toEqual(listArticlesFor(articles.filter((a) => a.onHomepage), null).map((a) => a.id));
  });
});

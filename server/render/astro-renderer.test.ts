import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { bilingualArticle, buildArticle, buildChannel, SITE, techChannel } from '../../test/support/view-models.ts';
import { createAstroRenderer, SiteBuildMissingError, withoutForbiddenBytes, type HtmlRenderer } from './astro-renderer.ts';
import { ensureSiteBuild } from './astro-compile.ts';
import type { PublicArticle } from '../read-model/view-models.ts';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The publication date of the articles whose date no test reads. */
const PUBLISHED = '2024-05-01T09:30:00.000Z';

// ---- a tiny HTML reader: start tags and their attributes (no DOM in node) ----

type Attrs = Record<string, string>;

function decode(value: string): string {
  return value
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

const START_TAG = /<([a-zA-Z][^\s/>]*)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>"']+))?)*)\s*\/?>/y;

/**
 * Attributes of every `<name …>` start tag, in document order. Attribute
 * values are read whole (a `<` inside one is text), comments are skipped and
 * the content of script and style elements is raw text, as in HTML.
 */
function tags(html: string, name: string): Attrs[] {
  const out: Attrs[] = [];
  let i = 0;
  while ((i = html.indexOf('<', i)) !== -1) {
    if (html.startsWith('<!--', i)) {
      i = html.indexOf('-->', i) + 3;
      continue;
    }
    START_TAG.lastIndex = i;
    const match = START_TAG.exec(html);
    if (!match) {
      i++;
      continue;
    }
    const tag = match[1]!.toLowerCase();
    i = START_TAG.lastIndex;
    if (tag === name.toLowerCase()) {
      const attrs: Attrs = {};
      for (const a of (match[2] ?? '').matchAll(/([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/g)) {
        attrs[a[1]!.toLowerCase()] = decode(a[2] ?? a[3] ?? a[4] ?? '');
      }
      out.push(attrs);
    }
    if (tag === 'script' || tag === 'style') {
      const end = html.toLowerCase().indexOf(`</${tag}`, i);
      i = end === -1 ? html.length : end;
    }
  }
  return out;
}

function metaContent(html: string, key: string): string[] {
  return tags(html, 'meta')
    .filter((m) => m['property'] === key || m['name'] === key)
    .map((m) => m['content']!);
}

function jsonLd(html: string): any {
  const match = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  expect(match, 'JSON-LD script').not.toBeNull();
  return JSON.parse(match![1]!);
}

function textOf(fragment: string): string {
  return decode(fragment.replace(/<[^>]+>/g, '')).replace(/\s+/g, ' ').trim();
}

/** The inner HTML of the first element with `class="name"` (no nesting of the same tag assumed). */
function byClass(html: string, tag: string, cls: string): string {
  const match = new RegExp(`<${tag}[^>]*class="[^"]*\\b${cls}\\b[^"]*"[^>]*>([\\s\\S]*?)</${tag}>`).exec(html);
  expect(match, `<${tag} class="${cls}">`).not.toBeNull();
  return match![1]!;
}

// ----

/** The renderer's pages as text (it answers UTF-8 bytes). */
type TextRenderer = { [K in 'article' | 'channel' | 'home' | 'notFound' | 'search']: (...args: Parameters<HtmlRenderer[K]>) => Promise<string> };
const decoded = async (bytes: Promise<Uint8Array>): Promise<string> => Buffer.from(await bytes).toString('utf8');
function asText(r: HtmlRenderer): TextRenderer {
  return {
    article: (...args) => decoded(r.article(...args)),
    channel: (...args) => decoded(r.channel(...args)),
    home: (...args) => decoded(r.home(...args)),
    notFound: (...args) => decoded(r.notFound(...args)),
    search: (...args) => decoded(r.search(...args)),
  };
}

let renderer: TextRenderer;
let bytesRenderer: HtmlRenderer;

beforeAll(async () => {
  const { buildDir } = await ensureSiteBuild(projectRoot);
  bytesRenderer = await createAstroRenderer(buildDir);
  renderer = asText(bytesRenderer);
}, 120_000);

describe('article page', () => {
  const article = bilingualArticle();
  let en: string;
  let ar: string;

  beforeAll(async () => {
    en = await renderer.article(article, 'en', SITE);
    ar = await renderer.article(article, 'ar', SITE);
  });

  it('is a whole document with lang and dir from the translation', () => {
    expect(en.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(tags(en, 'html')[0]).toMatchObject({ lang: 'en', dir: 'ltr' });
    expect(tags(ar, 'html')[0]).toMatchObject({ lang: 'ar', dir: 'rtl' });
    expect(tags(en, 'meta').some((m) => m['charset'] === 'utf-8')).toBe(true);
    expect(metaContent(en, 'viewport')).toHaveLength(1);
    expect(/<title>Hello, world · Tech Desk<\/title>/.test(en)).toBe(true);
    expect(metaContent(en, 'description')).toEqual(['The first story on the Tech Desk.']);
    expect(en).not.toMatch(/<base[\s>]/);
  });

  it('has the title as its only h1; the body H1 was demoted', () => {
    for (const html of [en, ar]) expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(/<h1[^>]*>Hello, world<\/h1>/.test(en)).toBe(true);
    expect(/<h1[^>]*>مرحبا بالعالم<\/h1>/.test(ar)).toBe(true);
    expect(en).toContain('A heading the author wrote as H1</h2>');
  });

  it('inserts the body HTML, links and code marked left to right, relative links resolved root-relative', () => {
    const body = byClass(en, 'div', 'article-body');
    expect(ar).toContain('<a href="/tech/ar/second-story">القصة التالية</a>');
    expect(ar).toMatch(/<a href="https:\/\/example\.com\/ar\/docs" dir="ltr">/);
    expect(ar).toMatch(/<code dir="ltr">npm run build<\/code>/);
    // Relative body links are resolved against the canonical page, as in the Markdown, and kept on the site
    // (root-relative): the same at /tech/hello-world, /tech/en/hello-world and a host's /tech/hello-world/.
    expect(body).toContain('href="/tech/en/second-story"');
    expect(body).not.toContain('./second-story');
  });

  it('links the canonical URL, the exact Markdown, JSON and RSS, and each published translation', () => {
    const links = tags(en, 'link');
    const canonical = links.filter((l) => l['rel'] === 'canonical');
    expect(canonical).toEqual([{ rel: 'canonical', href: 'https://news.example/tech/en/hello-world' }]);
    const byType = (type: string) => links.filter((l) => l['rel'] === 'alternate' && l['type'] === type).map((l) => l['href']);
    expect(byType('text/markdown')).toEqual(['https://news.example/api/public/v1/channels/tech/articles/hello-world.md?lang=en']);
    expect(byType('application/json')).toEqual(['https://news.example/api/public/v1/channels/tech/articles/hello-world?lang=en']);
    expect(byType('application/rss+xml')).toEqual(['https://news.example/tech/en/rss.xml']);
    const hreflang = links.filter((l) => l['hreflang']).map((l) => [l['hreflang'], l['href']]);
    expect(hreflang).toEqual([
      ['en', 'https://news.example/tech/en/hello-world'],
      ['ar', 'https://news.example/tech/ar/hello-world'],
      ['x-default', 'https://news.example/tech/en/hello-world'],
    ]);
    const arLinks = tags(ar, 'link');
    expect(arLinks.find((l) => l['rel'] === 'canonical')!['href']).toBe('https://news.example/tech/ar/hello-world');
    expect(arLinks.find((l) => l['type'] === 'text/markdown')!['href']).toBe(
      'https://news.example/api/public/v1/channels/tech/articles/hello-world.md?lang=ar',
    );
    expect(arLinks.find((l) => l['type'] === 'application/rss+xml')!['href']).toBe('https://news.example/tech/ar/rss.xml');
  });

  it('switches language only to the other published translations, named in their own language', () => {
    const nav = byClass(en, 'nav', 'languages');
    const anchors = tags(nav, 'a');
    expect(anchors).toEqual([{ href: '/tech/ar/hello-world', hreflang: 'ar', lang: 'ar', dir: 'rtl', rel: 'alternate' }]);
    expect(textOf(nav)).toContain('العربية');
    const arAnchors = tags(byClass(ar, 'nav', 'languages'), 'a');
    expect(arAnchors.map((a) => a['hreflang'])).toEqual(['en']);
    expect(textOf(byClass(ar, 'nav', 'languages'))).toContain('English');

    // A language that is not published never appears; a single translation has no switcher.
    const three = buildArticle(techChannel(), {
      id: 11,
      slug: 'three',
      defaultLanguage: 'en',
      translations: [
        { language: 'en', title: 'Three', markdown: 'One.', publishedAt: PUBLISHED },
        { language: 'fr', title: 'Trois', markdown: 'Un.', publishedAt: PUBLISHED },
        { language: 'fa', title: 'سه', markdown: 'یک.', publishedAt: PUBLISHED },
      ],
    });
    return Promise.all([renderer.article(three, 'fr', SITE), renderer.article({ ...three, translations: three.translations.slice(0, 1) }, 'en', SITE)]).then(
      ([fr, single]) => {
        const frNav = tags(byClass(fr, 'nav', 'languages'), 'a');
        expect(frNav.map((a) => a['hreflang'])).toEqual(['en', 'fa']);
        expect(textOf(byClass(fr, 'nav', 'languages'))).toContain('فارسی');
        expect(fr).not.toContain('hreflang="ar"');
        expect(single).not.toContain('class="languages"');
        // The channel has no French: its name comes from its default language, marked as such; the link and
        // the feed are the channel's French page and feed, which exist because this article is in French.
        expect(tags(byClass(fr, 'p', 'publisher'), 'a')).toEqual([{ href: '/tech/fr/', lang: 'en', dir: 'ltr' }]);
        expect(tags(fr, 'link').find((l) => l['type'] === 'application/rss+xml')!['href']).toBe('https://news.example/tech/fr/rss.xml');
        expect(byClass(fr, 'span', 'languages-label')).toBe('Autres langues\u00a0:');
        expect(tags(single, 'link').filter((l) => l['hreflang'] && l['hreflang'] !== 'x-default')).toHaveLength(1);
      },
    );
  });

  it('shows publisher, author and dates, and the image only in the body', () => {
    const publisher = tags(byClass(en, 'p', 'publisher'), 'a')[0];
    expect(publisher).toEqual({ href: '/tech/' });
    expect(textOf(byClass(en, 'p', 'publisher'))).toBe('Tech Desk');
    expect(textOf(byClass(ar, 'p', 'publisher'))).toBe('مكتب التقنية');
    expect(en).toContain('<bdi>Layla Haddad</bdi>');
    const times = tags(en, 'time').map((t) => t['datetime']);
    expect(times).toEqual(['2024-05-01T09:30:00.000Z', '2024-05-08T12:00:00.000Z']);
    expect(en).toContain('May 1, 2024');
    // The Arabic translation was not updated on a later day: one date.
    expect(tags(ar, 'time').map((t) => t['datetime'])).toEqual(['2024-05-02T10:00:00.000Z']);
    // The image is the body's own first image: the page shows it where the body does, not again above it.
    expect(tags(en, 'img')).toEqual([]);
  });

  it('has OpenGraph and Twitter metadata', () => {
    expect(metaContent(en, 'og:title')).toEqual(['Hello, world']);
    expect(metaContent(en, 'og:description')).toEqual(['The first story on the Tech Desk.']);
    expect(metaContent(en, 'og:url')).toEqual(['https://news.example/tech/en/hello-world']);
    expect(metaContent(en, 'og:type')).toEqual(['article']);
    expect(metaContent(en, 'og:locale')).toEqual(['en_US']);
    expect(metaContent(ar, 'og:locale')).toEqual(['ar_EG']);
    expect(metaContent(en, 'og:image')).toEqual(['https://news.example/media/tech/hello.jpg']);
    expect(metaContent(en, 'article:published_time')).toEqual(['2024-05-01T09:30:00.000Z']);
    expect(metaContent(en, 'article:modified_time')).toEqual(['2024-05-08T12:00:00.000Z']);
    expect(metaContent(en, 'twitter:card')).toEqual(['summary_large_image']);
    expect(metaContent(en, 'twitter:image')).toEqual(['https://news.example/media/tech/hello.jpg']);
  });

  it('previews a page without an image of its own with its drawn card, else the channel avatar, else the site logo (issue 34)', async () => {
    const noImage = buildArticle(techChannel(), { id: 12, slug: 'plain', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Plain', markdown: 'Text.', publishedAt: PUBLISHED }] });
    const html = await renderer.article(noImage, 'en', SITE);
    expect(metaContent(html, 'og:image')).toEqual(['https://news.example/tech/en/plain.png']);
    expect(metaContent(html, 'og:image:width')).toEqual(['1200']);
    expect(metaContent(html, 'og:image:height')).toEqual(['630']);
    expect(metaContent(html, 'og:image:type')).toEqual(['image/png']);
    expect(metaContent(html, 'og:image:alt')).toEqual(['Plain · Tech Desk']);
    expect(metaContent(html, 'twitter:card')).toEqual(['summary_large_image']);
    expect(metaContent(html, 'twitter:image:alt')).toEqual(['Plain · Tech Desk']);
    expect(jsonLd(html).image).toEqual(['https://news.example/tech/en/plain.png']);
    expect(jsonLd(html).publisher.logo).toEqual({ '@type': 'ImageObject', url: 'https://news.example/media/tech/avatar.png' });
    // Without cards: the channel's avatar; without one either, the site's logo (also the publisher's logo).
    const noCards = { ...SITE, socialCards: false };
    expect(metaContent(await renderer.article(noImage, 'en', noCards), 'og:image')).toEqual(['https://news.example/media/tech/avatar.png']);
    const bare = buildArticle({ ...techChannel(), avatarUrl: null }, { id: 13, slug: 'bare', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Bare', markdown: 'Text.', publishedAt: PUBLISHED }] });
    const bareHtml = await renderer.article(bare, 'en', noCards);
    expect(metaContent(bareHtml, 'og:image')).toEqual(['https://news.example/logo.png']);
    expect(jsonLd(bareHtml).publisher.logo).toEqual({ '@type': 'ImageObject', url: 'https://news.example/logo.png', width: 512, height: 512 });
  });

  it('writes no code point HTML forbids, whatever a stored title or excerpt holds', async () => {
    const odd = buildArticle(techChannel(), {
      id: 13,
      slug: 'odd',
      defaultLanguage: 'en',
      translations: [{ language: 'en', title: 'Bell\u0007 and NEL\u0085', excerpt: 'Esc\u001b here', markdown: 'Text.', publishedAt: PUBLISHED }],
    });
    const html = await renderer.article(odd, 'en', SITE);
    expect(html).not.toMatch(/[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F]/);
    expect(html).toContain('Bell and NEL');
  });

  it('finds forbidden code points in the bytes exactly: each C0, DEL and C1 one dropped, and nothing else, Arabic and astral text included', () => {
    const allowed = 'tab\tLF\nFF\fCR\r é ع 🚀 \u00a0\u0100\u0800\u2028\ufeff';
    const same = Buffer.from(allowed, 'utf8');
    expect(withoutForbiddenBytes(same)).toBe(same);
    for (let code = 0; code <= 0x9f; code++) {
      const forbidden = (code < 0x20 && ![0x09, 0x0a, 0x0c, 0x0d].includes(code)) || code >= 0x7f;
      const text = `a${String.fromCharCode(code)}b ${allowed}`;
      const out = withoutForbiddenBytes(Buffer.from(text, 'utf8')).toString('utf8');
      expect(out).toBe(forbidden ? `ab ${allowed}` : text);
    }
  });

  it('has JSON-LD Article data that parses', () => {
    const data = jsonLd(en);
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: 'Hello, world',
      inLanguage: 'en',
      datePublished: '2024-05-01T09:30:00.000Z',
      dateModified: '2024-05-08T12:00:00.000Z',
      author: { '@type': 'Person', name: 'Layla Haddad' },
      publisher: { '@type': 'Organization', name: 'Tech Desk', url: 'https://news.example/tech/' },
      mainEntityOfPage: { '@type': 'WebPage', '@id': 'https://news.example/tech/en/hello-world' },
      url: 'https://news.example/tech/en/hello-world',
      description: 'The first story on the Tech Desk.',
      image: ['https://news.example/media/tech/hello.jpg'],
    });
    const arData = jsonLd(ar);
    expect(arData).toMatchObject({ headline: 'مرحبا بالعالم', inLanguage: 'ar', publisher: { name: 'مكتب التقنية' } });
    expect(arData.translationOfWork['@id']).toBe('https://news.example/tech/en/hello-world');
  });

  it('escapes text everywhere, and JSON-LD cannot close its script element', async () => {
    const nasty = buildArticle(techChannel(), {
      id: 13,
      slug: 'nasty',
      defaultLanguage: 'en',
      translations: [{ language: 'en', title: 'Tags </script><script>alert(1)</script> & "quotes"', markdown: 'Body.', publishedAt: PUBLISHED }],
    });
    const html = await renderer.article(nasty, 'en', SITE);
    // Text is escaped; inside quoted attribute values only & and " need escaping, and are.
    expect(html).toContain('<title>Tags &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; · Tech Desk</title>');
    expect(html).toContain('>Tags &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;</h1>');
    // The only script element of an article page: JSON-LD (search is the search page's).
    expect(tags(html, 'script')).toEqual([{ type: 'application/ld+json' }]);
    expect(jsonLd(html).headline).toBe('Tags </script><script>alert(1)</script> & "quotes"');
    expect(metaContent(html, 'og:title')).toEqual(['Tags </script><script>alert(1)</script> & "quotes"']);
  });

  it('carries the search box (a form to the search page of its language), the indexed body, title meta and the language filter', () => {
    expect(tags(ar, 'form').find((f) => f['class'] === 'search')).toMatchObject({ role: 'search', action: '/search/ar/', method: 'get' });
    expect(tags(en, 'form').find((f) => f['class'] === 'search')).toMatchObject({ action: '/search/en/' });
    expect(tags(en, 'script').some((s) => s['src'] === '/pagefind/pagefind-ui.js')).toBe(false);
    expect(tags(en, 'article')[0]).toHaveProperty('data-pagefind-body');
    expect(tags(en, 'h1')[0]).toMatchObject({ 'data-pagefind-meta': 'title' });
    const filters = tags(ar, 'meta').filter((m) => m['data-pagefind-filter']);
    expect(filters).toContainEqual({ name: 'pagefind-language', 'data-pagefind-filter': 'language[content]', content: 'ar' });
  });

  it('links its own stylesheet, which is a client asset of the build', async () => {
    const sheet = tags(en, 'link').find((l) => l['rel'] === 'stylesheet' && l['href']!.startsWith('/_astro/'));
    expect(sheet).toBeDefined();
    const assets = await bytesRenderer.clientAssets();
    const asset = assets.find((a) => `/${a.path}` === sheet!['href']);
    expect(asset).toBeDefined();
    expect(fs.readFileSync(asset!.file, 'utf8')).toContain('unicode-bidi:isolate');
    for (const a of assets) expect(a.path.startsWith('_astro/')).toBe(true);
  });

  it('has no inline script: the search page\'s script is a client asset of the build, so the CSP needs no unsafe-inline', async () => {
    const search = await renderer.search(SITE, 'ar', [article.channel], ['ar', 'en']);
    const scripts = tags(search, 'script');
    // JSON data and JSON-LD are data, not script: CSP does not apply to them.
    for (const script of scripts) if (!/json/.test(script['type'] ?? '')) expect(script['src'], JSON.stringify(script)).toBeTruthy();
    const boot = scripts.find((s) => s['src']?.startsWith('/_astro/'));
    expect(boot).toMatchObject({ type: 'module' });
    const asset = (await bytesRenderer.clientAssets()).find((a) => `/${a.path}` === boot!['src']);
    expect(asset).toBeDefined();
    expect(fs.readFileSync(asset!.file, 'utf8')).toContain('mergeIndex');
  });

  it('refuses a translation that is not published', async () => {
    await expect(renderer.article(article, 'fr', SITE)).rejects.toThrow(/not published \(published: en, ar\)/);
  });
});

describe('channel page', () => {
  const channel = techChannel();
  const other = buildChannel({ id: 2, slug: 'sports', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Sports' }] });
  const hello = bilingualArticle(channel);
  const newer = buildArticle(channel, {
    id: 20,
    slug: 'newer',
    defaultLanguage: 'en',
    translations: [{ language: 'en', title: 'A newer story', markdown: 'Newer.', excerpt: 'Newest first.', publishedAt: '2024-06-01T00:00:00.000Z' }],
  });
  const arOnly = buildArticle(channel, {
    id: 21,
    slug: 'arabic-only',
    defaultLanguage: 'ar',
    translations: [{ language: 'ar', title: 'قصة عربية فقط', markdown: 'نص.', publishedAt: '2024-04-01T00:00:00.000Z' }],
  });
  const elsewhere = buildArticle(other, { id: 22, slug: 'match', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Match report', markdown: 'Goal.', publishedAt: PUBLISHED }] });
  const articles = [hello, newer, arOnly, elsewhere];

  const languages = ['en', 'ar'];

  it('lists its articles in that language, newest first, with links', async () => {
    const html = await renderer.channel(channel, 'en', languages, articles, SITE);
    expect(tags(html, 'html')[0]).toMatchObject({ lang: 'en', dir: 'ltr' });
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(/<h1[^>]*>Tech Desk<\/h1>/.test(html)).toBe(true);
    expect(html).toContain('News about software and the web.');
    const list = byClass(html, 'ol', 'article-list');
    expect(tags(list, 'a').map((a) => a['href'])).toEqual(['/tech/en/newer', '/tech/en/hello-world']);
    expect(list).not.toContain('Match report');
    expect(list).not.toContain('قصة عربية فقط');
    // The default language's canonical page is /{channel}/, as in the sitemap and the channel JSON.
    expect(tags(html, 'link').find((l) => l['rel'] === 'canonical')!['href']).toBe('https://news.example/tech/');
    expect(metaContent(html, 'og:url')).toEqual(['https://news.example/tech/']);
    const hreflang = tags(html, 'link').filter((l) => l['hreflang']).map((l) => [l['hreflang'], l['href']]);
    expect(hreflang).toEqual([
      ['en', 'https://news.example/tech/'],
      ['ar', 'https://news.example/tech/ar/'],
      ['x-default', 'https://news.example/tech/'],
    ]);
    expect(tags(html, 'link').find((l) => l['type'] === 'application/rss+xml')!['href']).toBe('https://news.example/tech/en/rss.xml');
    expect(tags(html, 'a').some((a) => a['href'] === '/tech/en/rss.xml')).toBe(true);
    expect(metaContent(html, 'description')).toEqual(['News about software and the web.']);
  });

  it('renders right to left in Arabic with the Arabic articles only', async () => {
    const html = await renderer.channel(channel, 'ar', languages, articles, SITE);
    expect(tags(html, 'html')[0]).toMatchObject({ lang: 'ar', dir: 'rtl' });
    const list = byClass(html, 'ol', 'article-list');
    expect(tags(list, 'a').map((a) => a['href'])).toEqual(['/tech/ar/hello-world', '/tech/ar/arabic-only']);
    expect(tags(byClass(html, 'nav', 'languages'), 'a').map((a) => a['hreflang'])).toEqual(['en']);
  });

  it('refuses a language that is not one of the channel\'s', async () => {
    await expect(renderer.channel(channel, 'fr', languages, articles, SITE)).rejects.toThrow(/not one of the channel's languages \(en, ar\)/);
  });

  it('renders a language only its articles have: their list, the channel named in its default language, marked so', async () => {
    const german = buildArticle(channel, { id: 23, slug: 'german', defaultLanguage: 'de', translations: [{ language: 'de', title: 'Eine Geschichte', markdown: 'Text.', publishedAt: PUBLISHED }] });
    const html = await renderer.channel(channel, 'de', ['en', 'ar', 'de'], [...articles, german], SITE);
    expect(tags(html, 'html')[0]).toMatchObject({ lang: 'de', dir: 'ltr' });
    expect(tags(html, 'h1')[0]).toMatchObject({ lang: 'en', dir: 'ltr' });
    expect(tags(byClass(html, 'ol', 'article-list'), 'a').map((a) => a['href'])).toEqual(['/tech/de/german']);
    expect(tags(html, 'link').find((l) => l['rel'] === 'canonical')!['href']).toBe('https://news.example/tech/de/');
    expect(metaContent(html, 'og:url')).toEqual(['https://news.example/tech/de/']);
    expect(tags(html, 'link').find((l) => l['type'] === 'application/rss+xml')!['href']).toBe('https://news.example/tech/de/rss.xml');
    // No channel document in German exists (no substitution): the link names the default-language one.
    expect(tags(html, 'link').find((l) => l['type'] === 'application/json')!['href']).toBe('https://news.example/api/public/v1/channels/tech');
    expect(tags(html, 'link').filter((l) => l['hreflang']).map((l) => l['hreflang'])).toEqual(['en', 'ar', 'de', 'x-default']);
  });
});

describe('homepage', () => {
  it('lists only the onHomepage articles, newest first, with their channel, and the channels', async () => {
    const channel = techChannel();
    const sports = buildChannel({ id: 2, slug: 'sports', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Sports', description: 'Games.' }] });
    const hello = bilingualArticle(channel);
    const hidden = buildArticle(channel, {
      id: 30,
      slug: 'hidden',
      defaultLanguage: 'en',
      onHomepage: false,
      translations: [{ language: 'en', title: 'Not on the homepage', markdown: 'x', publishedAt: '2024-07-01T00:00:00.000Z' }],
    });
    const arabic = buildArticle(channel, { id: 31, slug: 'arabic', defaultLanguage: 'ar', translations: [{ language: 'ar', title: 'خبر عاجل', markdown: 'نص.', publishedAt: '2024-06-01T00:00:00.000Z' }] });
    const match = buildArticle(sports, { id: 32, slug: 'match', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Match report', markdown: 'Goal.', publishedAt: '2024-05-15T00:00:00.000Z' }] });
    const html = await renderer.home([channel, sports], [hello, hidden, arabic, match], SITE);

    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(/<title>Pressroom News<\/title>/.test(html)).toBe(true);
    expect(metaContent(html, 'description')).toHaveLength(1);
    const list = byClass(html, 'ol', 'article-list');
    const titles = tags(list, 'h3').length;
    expect(titles).toBe(3);
    const hrefs = tags(list, 'a').map((a) => a['href']);
    expect(hrefs).toEqual(['/tech/ar/arabic', '/tech/ar/', '/sports/en/match', '/sports/', '/tech/en/hello-world', '/tech/']);
    expect(list).not.toContain('Not on the homepage');
    // The Arabic item keeps its own language and direction inside the page.
    expect(tags(list, 'li')[0]).toMatchObject({ lang: 'ar', dir: 'rtl' });
    expect(textOf(list)).toContain('مكتب التقنية');
    const channels = byClass(html, 'ul', 'channel-list');
    expect(tags(channels, 'a').map((a) => a['href'])).toEqual(['/tech/', '/sports/']);
  });
});

describe('site paths', () => {
  it('puts the stylesheet, search and home link under the base path of the site URL', async () => {
    const html = await renderer.article(bilingualArticle(), 'en', { ...SITE, baseUrl: 'https://news.example/press' });
    const sheets = tags(html, 'link').filter((l) => l['rel'] === 'stylesheet').map((l) => l['href']);
    expect(sheets[0]).toMatch(/^\/press\/_astro\/site\.[\w-]+\.css$/);
    expect(sheets).toHaveLength(1);
    expect(tags(html, 'form').find((f) => f['class'] === 'search')).toMatchObject({ action: '/press/search/en/' });
    expect(tags(html, 'a').find((a) => a['class'] === 'site-name')!['href']).toBe('/press/');
  });
});

describe('renderer', () => {
  it('is deterministic: same input, same bytes (also from a fresh renderer)', async () => {
    const article = bilingualArticle();
    const first = await renderer.article(article, 'ar', SITE);
    const second = await renderer.article(structuredClone(article) as PublicArticle, 'ar', SITE);
    const { buildDir } = await ensureSiteBuild(projectRoot);
    const fresh = asText(await createAstroRenderer(buildDir, { recycleAfter: 1 }));
    const third = await fresh.article(article, 'ar', SITE);
    const fourth = await fresh.article(article, 'ar', SITE);
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(fourth).toBe(first);
    const channel = techChannel();
    expect(await renderer.channel(channel, 'en', ['en', 'ar'], [article], SITE)).toBe(await fresh.channel(channel, 'en', ['en', 'ar'], [article], SITE));
  });

  it('renders 200 article pages (timing, printed)', async () => {
    const article = bilingualArticle();
    for (let i = 0; i < 20; i++) await renderer.article(article, i % 2 ? 'ar' : 'en', SITE);
    const runs = 200;
    const started = performance.now();
    for (let i = 0; i < runs; i++) await renderer.article(article, i % 2 ? 'ar' : 'en', SITE);
    const mean = (performance.now() - started) / runs;
    console.log(`astro-renderer: mean article render ${mean.toFixed(3)} ms over ${runs} renders`);
    expect(mean).toBeGreaterThan(0);
  });

  it('loads the compiled pages at the first render when asked to, rendering the same bytes', async () => {
    const { buildDir } = await ensureSiteBuild(projectRoot);
    const lazy = await createAstroRenderer(buildDir, { loadOnFirstRender: true });
    const article = bilingualArticle();
    expect(Buffer.from(await lazy.article(article, 'ar', SITE)).equals(Buffer.from(await bytesRenderer.article(article, 'ar', SITE)))).toBe(true);
  });

  it('explains what to do when the build is missing', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-no-build-'));
    try {
      const attempt = createAstroRenderer(empty);
      await expect(attempt).rejects.toBeInstanceOf(SiteBuildMissingError);
      await expect(createAstroRenderer(empty)).rejects.toThrow(/No compiled site in .*npm run compile:astro/);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

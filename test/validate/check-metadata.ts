/**
 * The link-preview and crawler part of the output validation suite
 * (docs/OUTPUTS.md, "Validation"), over every page of an output folder,
 * parsed as HTML (hast-util-from-html):
 *
 * - JSON-LD: every `application/ld+json` script parses, has `@context`
 *   `https://schema.org` and a `@type`; an `Article` has `headline`,
 *   `inLanguage` (the page's `lang`), `datePublished`, `url` and
 *   `mainEntityOfPage` on the site, `publisher.name`, and absolute `image`s
 *   that exist.
 * - OpenGraph: `og:title`, `og:type`, `og:url` (the canonical address, as
 *   `<link rel="canonical">`), `og:locale` in `ll_CC` form; `og:image` on
 *   every page (issue 34), absolute and existing, with `og:image:alt`, and
 *   its `og:image:width`/`height` the file's own size when given;
 *   `twitter:card` `summary`, or `summary_large_image` with an image;
 *   `twitter:image` the same image.
 * - JSON-LD on articles, channel pages and the homepage: `image`s that
 *   exist, and a `publisher.logo` that exists.
 * - hreflang: every alternate answers from the output folder; the set is
 *   reciprocal (each alternate page lists the same set, itself included) and
 *   has an `x-default` on article pages; the page's canonical address is in
 *   its own set.
 *
 * Pages marked `noindex` (the 404 page) are left out.
 *
 * Returns problems as text ("file: what"), empty when everything passes.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Element, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import sharp from 'sharp';
import { toString } from 'hast-util-to-string';
import { eachElement } from '../../server/domain/body/tree-walk.ts';
import { htmlFiles } from './check-html.ts';
import { siteFileFor } from './site-links.ts';

interface PageFacts {
  readonly lang: string;
  readonly canonical: string | undefined;
  readonly meta: Map<string, string[]>;
  readonly hreflang: Map<string, string>;
  readonly jsonLd: string[];
}

function factsOf(html: string): PageFacts {
  const tree = fromHtml(html) as Root;
  const meta = new Map<string, string[]>();
  const hreflang = new Map<string, string>();
  const jsonLd: string[] = [];
  let lang = '';
  let canonical: string | undefined;
  eachElement(tree, (el: Element) => {
    const p = el.properties;
    if (el.tagName === 'html') lang = String(p.lang ?? '');
    if (el.tagName === 'meta') {
      const key = String(p.property ?? p.name ?? '');
      if (key) meta.set(key, [...(meta.get(key) ?? []), String(p.content ?? '')]);
    }
    if (el.tagName === 'link') {
      const rel = ([] as unknown[]).concat(p.rel ?? []).map(String);
      if (rel.includes('canonical')) canonical = String(p.href);
      if (rel.includes('alternate') && p.hrefLang) hreflang.set(String(p.hrefLang), String(p.href));
    }
    if (el.tagName === 'script' && p.type === 'application/ld+json') jsonLd.push(toString(el));
  });
  return { lang, canonical, meta, hreflang, jsonLd };
}

/** Checks every page of `distDir` for the site at `baseUrl` (see module doc). */
export async function checkMetadata(distDir: string, baseUrl: string): Promise<string[]> {
  const problems: string[] = [];
  const pages = new Map<string, PageFacts>();
  for (const file of htmlFiles(distDir)) pages.set(file, factsOf(fs.readFileSync(path.join(distDir, file), 'utf8')));
  const exists = (file: string, url: string, what: string) => {
    const target = siteFileFor(url, baseUrl, distDir);
    if ('problem' in target) problems.push(`${file}: ${what}: ${target.problem}`);
    return 'file' in target ? target.file : null;
  };
  for (const [file, page] of pages) {
    const one = (key: string) => page.meta.get(key)?.[0];
    // A page that asks not to be indexed (the 404 page) is no one's preview or alternate.
    if (one('robots')?.includes('noindex')) continue;
    // OpenGraph and Twitter.
    for (const key of ['og:title', 'og:type', 'og:url', 'og:locale']) if (!one(key)) problems.push(`${file}: no ${key}`);
    if (page.canonical === undefined) problems.push(`${file}: no <link rel="canonical">`);
    else {
      exists(file, page.canonical, 'canonical');
      if (one('og:url') !== page.canonical) problems.push(`${file}: og:url ${one('og:url')} is not the canonical ${page.canonical}`);
    }
    if (one('og:locale') && !/^[a-z]{2,3}_[A-Z]{2}$/.test(one('og:locale')!)) problems.push(`${file}: og:locale "${one('og:locale')}" is not ll_CC`);
    const image = one('og:image');
    if (!image) problems.push(`${file}: no og:image`);
    else {
      const target = exists(file, image, 'og:image');
      if (!one('og:image:alt')) problems.push(`${file}: og:image without og:image:alt`);
      if (one('twitter:image') !== image) problems.push(`${file}: twitter:image ${one('twitter:image')} is not og:image ${image}`);
      const [width, height] = [one('og:image:width'), one('og:image:height')];
      if (target && width && height) {
        const meta = await sharp(path.join(distDir, target)).metadata();
        if (String(meta.width) !== width || String(meta.height) !== height) problems.push(`${file}: og:image is ${meta.width}×${meta.height}, the page says ${width}×${height}`);
      }
    }
    if (page.jsonLd.length === 0) problems.push(`${file}: no JSON-LD`);
    const card = one('twitter:card');
    // A large card needs an image; a small one may have one (a channel's square avatar).
    if (card !== 'summary' && !(card === 'summary_large_image' && image)) problems.push(`${file}: twitter:card "${card}" with ${image ? 'an' : 'no'} og:image`);
    // JSON-LD.
    for (const text of page.jsonLd) {
      let data: Record<string, unknown>;
      try {
        data = JSON.parse(text) as Record<string, unknown>;
      } catch (error) {
        problems.push(`${file}: JSON-LD does not parse: ${(error as Error).message}`);
        continue;
      }
      if (data['@context'] !== 'https://schema.org' || typeof data['@type'] !== 'string') problems.push(`${file}: JSON-LD without schema.org @context or @type`);
      if (data['@type'] === 'Article' || data['@type'] === 'NewsArticle') {
        for (const key of ['headline', 'datePublished', 'url']) if (typeof data[key] !== 'string') problems.push(`${file}: JSON-LD ${data['@type']} has no ${key}`);
        if (data.inLanguage !== page.lang) problems.push(`${file}: JSON-LD inLanguage ${String(data.inLanguage)} is not the page's lang ${page.lang}`);
        if (typeof data.url === 'string') exists(file, data.url, 'JSON-LD url');
        if (typeof (data.publisher as { name?: unknown } | undefined)?.name !== 'string') problems.push(`${file}: JSON-LD has no publisher.name`);
      }
      const images = ([] as unknown[]).concat(data.image ?? []);
      if (images.length === 0) problems.push(`${file}: JSON-LD ${String(data['@type'])} has no image`);
      for (const img of images) if (typeof img === 'string') exists(file, img, 'JSON-LD image');
      const logo = (data.publisher as { logo?: { url?: unknown } } | undefined)?.logo?.url;
      if (typeof logo !== 'string') problems.push(`${file}: JSON-LD ${String(data['@type'])} has no publisher.logo`);
      else exists(file, logo, 'JSON-LD publisher.logo');
    }
    // hreflang: every alternate exists and lists the same set.
    if (page.hreflang.size > 0) {
      if (page.canonical !== undefined && ![...page.hreflang.values()].includes(page.canonical)) problems.push(`${file}: the canonical address is not among its hreflang alternates`);
      for (const [lang, href] of page.hreflang) {
        const target = exists(file, href, `hreflang ${lang}`);
        const other = target ? pages.get(target) : undefined;
        if (target && !other) problems.push(`${file}: hreflang ${lang} ${href} is not a page`);
        if (other && JSON.stringify([...other.hreflang].sort()) !== JSON.stringify([...page.hreflang].sort())) problems.push(`${file}: hreflang set differs on ${target} (not reciprocal)`);
      }
      if (page.jsonLd.some((t) => t.includes('"Article"')) && !page.hreflang.has('x-default')) problems.push(`${file}: article page without hreflang x-default`);
    }
  }
  return problems;
}

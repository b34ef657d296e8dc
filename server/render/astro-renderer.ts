/**
 * The HTML renderer: renders the compiled Astro pages (`src/pages/article`,
 * `channel`, `home`) in-process with Astro's Container API, passing the view
 * model as `Astro.locals.pressroom`. Astro compiles the site once
 * (`astro-compile.ts`, `npm run compile:astro`); this module keeps a warm
 * container and renders a page in well under a millisecond.
 *
 * This is the only module that imports Astro at run time.
 * @module
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { experimental_AstroContainer } from 'astro/container';
import { withoutForbiddenCodePoints } from '../domain/body/forbidden-code-points.ts';
import type { ArticlePageInput, ChannelPageInput, HomePageInput, NotFoundPageInput, PageInput, SearchPageInput } from '../../src/lib/page-input.ts';
import { BUILD_STAMP_FILE, readBuildStamp } from './astro-compile.ts';
import { pageHtmlOf } from './public-body.ts';
import type { PublicArticle, PublicArticleSummary, PublicChannel, SiteInfo } from '../read-model/view-models.ts';

/** A file of the compiled site that the static output must contain. */
export interface ClientAsset {
  /** Where it goes, relative to the output root, `/`-separated (e.g. `_astro/site.B2x9.css`). */
  readonly path: string;
  /** Absolute path of the file in the build folder. */
  readonly file: string;
}

/**
 * Renders public pages to complete HTML documents, as the UTF-8 bytes that
 * are written and served (`Buffer.from(bytes).toString()` for the text).
 */
export interface HtmlRenderer {
  /** The article page of one published translation (`/{channel}/{lang}/{article}`). */
  article(article: PublicArticle, language: string, site: SiteInfo): Promise<Uint8Array>;
  /**
   * A channel's page in one of its languages (`languages`: its own and its
   * articles', `channelLanguages`), listing those of `articles` that belong
   * to it and have a translation in `language`, newest first.
   */
  channel(channel: PublicChannel, language: string, languages: readonly string[], articles: readonly PublicArticleSummary[], site: SiteInfo): Promise<Uint8Array>;
  /** The homepage: the `onHomepage` articles among `articles`, newest first, and the channels. */
  home(channels: readonly PublicChannel[], articles: readonly PublicArticleSummary[], site: SiteInfo): Promise<Uint8Array>;
  /** The page static hosts send with a 404 (`/404.html`). */
  /** A 404 page: the site's (`language` null: English), in a language, or a channel's. */
  notFound(site: SiteInfo, language: string | null, channel: PublicChannel | null): Promise<Uint8Array>;
  /** The search page of one language, or of every language (`language` null). */
  search(site: SiteInfo, language: string | null, channels: readonly PublicChannel[], languages: readonly string[]): Promise<Uint8Array>;
  /**
   * Files under the build's client folder that the pages reference (the
   * stylesheet under `_astro/`): copy each `file` to `{output}/{path}`.
   * Sorted by path.
   */
  clientAssets(): Promise<ClientAsset[]>;
  /** Hash of the site sources this build came from; it changes when any page may render differently. */
  readonly buildHash: string;
}

/** Options of `createAstroRenderer`. */
export interface AstroRendererOptions {
  /**
   * Renders per container before a fresh one replaces it. Astro's container
   * records a route for every render and never forgets it, so a long-lived
   * one slowly gets slower and larger; creating one costs a few ms.
   * Default 1000.
   */
  readonly recycleAfter?: number;
  /**
   * Loads the compiled pages and Astro's container at the first render, not
   * at creation: the service's start does not wait ~0.45 s for a renderer a
   * start with nothing to build never uses (issue 36, "search from the first
   * second"). A page missing from the build is then reported by that render.
   */
  readonly loadOnFirstRender?: boolean;
}

/** Thrown when the build folder holds no complete build, or lacks a page. */
export class SiteBuildMissingError extends Error {
  override readonly name = 'SiteBuildMissingError';
}

type AstroContainer = experimental_AstroContainer;
type PageComponent = Parameters<AstroContainer['renderToString']>[0];

/** The render entry points, by file name under `src/pages/`. */
const PAGES = ['article', 'channel', 'home', 'not-found', 'search'] as const;
type PageName = (typeof PAGES)[number];

const FIX = 'Run "npm run compile:astro" (or call ensureSiteBuild from server/render/astro-compile.ts) first.';

/**
 * Loads the compiled site from `buildDir` (`.pressroom/astro`) and returns a
 * warm renderer. Throws `SiteBuildMissingError` when the build is missing
 * or incomplete.
 * @example
 * const { buildDir } = await ensureSiteBuild(root);
 * const html = await (await createAstroRenderer(buildDir)).article(article, 'ar', site);
 */
export async function createAstroRenderer(buildDir: string, options: AstroRendererOptions = {}): Promise<HtmlRenderer> {
  const dir = path.resolve(buildDir);
  const stamp = await readBuildStamp(dir);
  if (!stamp) {
    throw new SiteBuildMissingError(
      `No compiled site in ${dir}: the HTML renderer renders Astro's compiled pages, and ${BUILD_STAMP_FILE} is missing ` +
        `there (the site was never built, or its build did not finish). ${FIX}`,
    );
  }
  const serverDir = path.join(dir, 'server');
  const load = async () => {
    const components = {} as Record<PageName, PageComponent>;
    for (const name of PAGES) components[name] = await loadPage(serverDir, name, stamp.hash);
    const { experimental_AstroContainer: Container } = await import('astro/container');
    return { components, Container };
  };
  let loaded: ReturnType<typeof load> | null = options.loadOnFirstRender ? null : load();
  if (loaded) await loaded;
  const recycleAfter = Math.max(1, options.recycleAfter ?? 1000);
  let container: Promise<AstroContainer> | null = null;
  let uses = 0;

  const render = async (name: PageName, input: PageInput): Promise<Uint8Array> => {
    // A failed load is tried again by the next render (a page being compiled meanwhile, say), never kept.
    loaded ??= load().catch((error: unknown) => {
      loaded = null;
      throw error;
    });
    const { components, Container } = await loaded;
    if (!container || ++uses > recycleAfter) {
      uses = 1;
      container = Container.create();
    }
    const locals: App.Locals = { pressroom: input };
    // partial: false renders a whole document, with its doctype. The response's bytes are what Astro encoded;
    // `renderToString` decoded them, and the writer encoded the text again (a round trip paid for every page).
    const response = await (await container).renderToResponse(components[name], { locals, partial: false });
    return withoutForbiddenBytes(Buffer.from(await response.arrayBuffer()));
  };

  return Object.freeze({
    buildHash: stamp.hash,
    article(article: PublicArticle, language: string, site: SiteInfo) {
      if (!article.translations.some((t) => t.language === language)) {
        const published = article.translations.map((t) => t.language).join(', ') || 'none';
        return Promise.reject(
          new Error(
            `Cannot render article "${article.channel.slug}/${article.slug}" (id ${article.id}) in "${language}": ` +
              `that translation is not published (published: ${published}). Render only published translations.`,
          ),
        );
      }
      // The page's body links resolved as in its Markdown, root-relative on the site (public-body.ts).
      const origin = siteOrigin(site);
      const translations = article.translations.map((t) => (t.language === language ? { ...t, html: pageHtmlOf(t, origin) } : t));
      const input: ArticlePageInput = { page: 'article', article: { ...article, translations }, language, site };
      return render('article', input);
    },
    channel(channel: PublicChannel, language: string, languages: readonly string[], articles: readonly PublicArticleSummary[], site: SiteInfo) {
      if (!languages.includes(language)) {
        return Promise.reject(
          new Error(
            `Cannot render channel "${channel.slug}" (id ${channel.id}) in "${language}": it is not one of the channel's ` +
              `languages (${languages.join(', ') || 'none'}). Channel pages exist in the languages of the channel and of its public articles.`,
          ),
        );
      }
      const input: ChannelPageInput = { page: 'channel', channel, language, languages, articles, site };
      return render('channel', input);
    },
    home(channels: readonly PublicChannel[], articles: readonly PublicArticleSummary[], site: SiteInfo) {
      const input: HomePageInput = { page: 'home', channels, articles, site };
      return render('home', input);
    },
    notFound(site: SiteInfo, language: string | null, channel: PublicChannel | null) {
      const input: NotFoundPageInput = { page: 'not-found', language, channel, site };
      return render('not-found', input);
    },
    search(site: SiteInfo, language: string | null, channels: readonly PublicChannel[], languages: readonly string[]) {
      const input: SearchPageInput = { page: 'search', language, channels, languages, site };
      return render('search', input);
    },
    clientAssets: () => listClientAssets(path.join(dir, 'client')),
  } satisfies HtmlRenderer);
}

/**
 * Bytes 0x00–0x08, 0x0B, 0x0E–0x1F and 0x7F: the C0 controls and DEL that
 * `withoutForbiddenCodePoints` drops (a byte below 0x80 is always a whole
 * character in UTF-8), matched in the bytes read as Latin-1. The C1 controls
 * (U+0080–U+009F) are 0xC2 followed by 0x80–0x9F, looked for apart: one
 * character class scans a page faster than an alternation (docs/PERFORMANCE.md,
 * "What bounds them").
 */
const FORBIDDEN_BYTE = /[\x00-\x08\x0B\x0E-\x1F\x7F]/;

function hasForbiddenCodePoint(bytes: Buffer): boolean {
  if (FORBIDDEN_BYTE.test(bytes.toString('latin1'))) return true;
  for (let i = bytes.indexOf(0xc2); i >= 0; i = bytes.indexOf(0xc2, i + 1)) if (bytes[i + 1]! <= 0x9f) return true;
  return false;
}

/** `bytes` (UTF-8) without the code points HTML forbids; the same bytes when it has none, as nearly every page. */
export function withoutForbiddenBytes(bytes: Buffer): Buffer {
  return hasForbiddenCodePoint(bytes) ? Buffer.from(withoutForbiddenCodePoints(bytes.toString('utf8')), 'utf8') : bytes;
}

interface CompiledPageModule {
  page?: () => Promise<{ default?: PageComponent; file?: string; url?: string }> | { default?: PageComponent; file?: string; url?: string };
}

/**
 * Finds and loads the compiled `src/pages/{name}.astro`. Astro names it
 * `server/pages/{name}.astro.mjs`; that file is tried first and, should a
 * future Astro name it differently, every other page module is scanned.
 * A module counts only when its page reports `file` = …/src/pages/{name}.astro
 * or `url` = /{name}, so a wrong file is never used.
 */
async function loadPage(serverDir: string, name: PageName, buildHash: string): Promise<PageComponent> {
  const pagesDir = path.join(serverDir, 'pages');
  const expected = path.join(pagesDir, `${name}.astro.mjs`);
  const all = (await fs.readdir(pagesDir, { recursive: true }).catch(() => [] as string[]))
    .map((rel) => path.join(pagesDir, rel))
    .filter((file) => file.endsWith('.mjs') && !path.basename(file).startsWith('_') && file !== expected)
    .sort();
  const candidates = [expected, ...all];
  for (const file of candidates) {
    const exists = await fs.stat(file).then((s) => s.isFile()).catch(() => false);
    if (!exists) continue;
    // The query keeps a rebuilt page (same file name) from being served from Node's module cache.
    const mod = (await import(`${pathToFileURL(file).href}?build=${buildHash.slice(0, 16)}`)) as CompiledPageModule;
    if (typeof mod.page !== 'function') continue;
    const page = await mod.page();
    const source = (page.file ?? '').split(path.sep).join('/');
    if (page.default && (source.endsWith(`/src/pages/${name}.astro`) || page.url === `/${name}`)) return page.default;
  }
  throw new SiteBuildMissingError(
    `The compiled site in ${path.dirname(serverDir)} has no "${name}" page: neither server/pages/${name}.astro.mjs ` +
      `nor any other module in server/pages/ is src/pages/${name}.astro. Check that src/pages/${name}.astro exists, ` +
      `then rebuild with "npm run compile:astro -- --force".`,
  );
}

async function listClientAssets(clientDir: string): Promise<ClientAsset[]> {
  let entries;
  try {
    entries = await fs.readdir(clientDir, { withFileTypes: true, recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      return { path: path.relative(clientDir, file).split(path.sep).join('/'), file };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The origin of the site's base URL (`https://news.example`); the base itself when it is no URL. */
function siteOrigin(site: SiteInfo): string {
  try {
    return new URL(site.baseUrl).origin;
  } catch {
    return site.baseUrl;
  }
}

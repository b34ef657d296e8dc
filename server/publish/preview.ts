/**
 * The dashboard's preview of a publish (issue 37): what publishing an
 * article with its current texts would write, rendered by the builder's own
 * plans (`builder/site-plan.ts`) and renderers, compared with the bytes in
 * the output folder now. Nothing is written, the builder's state is read and
 * never changed (no anchor recorded, no memo, no manifest row), and the
 * previewed article goes nowhere but the answer.
 *
 * Its cost is one article: the article's owner (every file, rendered), the
 * files of its channel and of the site that list it (planned from the
 * builder's public state with the article put in its channel's group: a
 * file whose inputs are those of the live plan is unchanged and not
 * rendered), and the channel's cursor pages that show it (around its old and
 * new place in each list, and the page after it, as an incremental build
 * plans them). Left out: the site's client assets and the API documents
 * (`_astro/`, `openapi.json`; no article changes them), the channel list's
 * cursor pages (they list channels, not articles), and what follows a build
 * outside the builder's plans: the search index (`pagefind/`) and a static
 * host's own files (`PRESSROOM_STATIC_HOST`). A card drawn for the preview
 * goes to the card renderer's cache in the data folder, as the build's do.
 * @module
 */
import fs from 'node:fs';
import { isoNow, type Clock } from '../clock.ts';
import type { CursorCodec } from '../domain/cursor.ts';
import { resolveOutputPath, outputBytes } from '../output/output-writer.ts';
import { anchorsShowing, ARTICLE_LIST_ORDER, articleListScope, DEFAULT_LIST_LIMIT, firstNotBefore, withItemAnchors } from '../read-model/list-pages.ts';
import type { PublicModel } from '../read-model/public-model.ts';
import type { PublicState } from '../read-model/public-state.ts';
import { byPublication, channelLanguages, cursorPosition, translationIn } from '../read-model/selection.ts';
import type { ArticlesByChannel, PublicArticle, PublicArticleSummary, PublicChannel, SiteInfo } from '../read-model/view-models.ts';
import type { Renderers } from '../render/renderers.ts';
import type { Db } from '../store/database.ts';
import { filesOfOwners } from '../store/output-file.repository.ts';
import { articleOwner, channelOwner, pagesOwner, planArticle, planArticlePages, planChannel, planSite, SITE_OWNER, type PlannedFile } from './builder/site-plan.ts';
import { compareOutput, sameInputs, type OutputChange, type PlannedBytes } from './preview-compare.ts';

/** What a preview needs: the builder's parts, read only. */
export interface ArticlePreviewDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly model: PublicModel;
  readonly renderers: Renderers;
  readonly cursors: CursorCodec;
  readonly site: SiteInfo;
  readonly channelsUrl: string;
  readonly outputDir: string;
  /** The public state the output was last built from (`SiteBuilder.publicState`). */
  readonly state: () => Promise<PublicState>;
  /** Whether publication events wait to be built (the folder is about to change). */
  readonly pending: () => Promise<boolean>;
}

/** A publish previewed. */
export interface ArticlePreview {
  /** The article as it would be published (every translation). */
  readonly article: PublicArticle;
  /** The languages whose texts are not what readers have now. */
  readonly changedLanguages: readonly string[];
  /** Every planned file and each file the plan removes, what changes first. */
  readonly files: readonly OutputChange[];
  /** Whether a build was waiting when the preview was made: the live files may be about to change. */
  readonly buildPending: boolean;
  /** The time taken for "now" (first publication, the moderation decision). */
  readonly at: string;
}

/** The preview's operations. */
export interface ArticlePreviewer {
  /** The files publishing article `articleId` now would write and delete; null when it does not exist or its channel is not public. */
  preview(articleId: number): Promise<ArticlePreview | null>;
  /** The article's page in `language` as publishing would write it; null when it has no such translation (or no preview). */
  page(articleId: number, language: string): Promise<Uint8Array | null>;
}

/** Renders a planned file, each render function once (the default language's copies share theirs). */
function renderOnce(): (file: PlannedFile) => Promise<Uint8Array> {
  const made = new Map<PlannedFile['render'], Promise<Uint8Array>>();
  return (file) => {
    let bytes = made.get(file.render);
    if (!bytes) made.set(file.render, (bytes = Promise.resolve(file.render()).then(outputBytes)));
    return bytes;
  };
}

/**
 * The planned files of an owner, rendered unless `live` (the plan of what is out now) names the same inputs for
 * the path; and the paths `live` had that the plan has not.
 */
async function renderAgainst(owner: string, planned: readonly PlannedFile[], live: readonly PlannedFile[], render: (file: PlannedFile) => Promise<Uint8Array>): Promise<{ files: PlannedBytes[]; gone: Array<{ path: string; owner: string }> }> {
  const before = new Map(live.map((f) => [f.path, f]));
  const files: PlannedBytes[] = [];
  for (const file of planned) {
    const was = before.get(file.path);
    files.push({ path: file.path, owner, bytes: was && sameInputs(was.inputs, file.inputs) ? null : await render(file) });
  }
  const paths = new Set(planned.map((f) => f.path));
  return { files, gone: live.filter((f) => !paths.has(f.path)).map((f) => ({ path: f.path, owner })) };
}

/** Creates the previewer over the builder's parts. */
export function createArticlePreviewer(deps: ArticlePreviewDeps): ArticlePreviewer {
  const { renderers, cursors, site } = deps;
  const live = (path: string): Uint8Array | null => {
    try {
      return fs.readFileSync(resolveOutputPath(deps.outputDir, path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
      throw error;
    }
  };

  /**
   * The channel's cursor pages that would show the article, or be new, after the publish: in each list, the
   * pages whose items include its old or new place, and the page after its new place (a new anchor), with
   * the anchors the build would record (computed here, not recorded).
   */
  function plannedPages(anchorsByScope: PublicState['anchors'], channel: PublicChannel, before: readonly PublicArticleSummary[], after: readonly PublicArticleSummary[], was: PublicArticleSummary | null, now: PublicArticleSummary): PlannedFile[] {
    const planned: PlannedFile[] = [];
    for (const language of [null, ...channelLanguages(channel, after)]) {
      const scope = articleListScope(channel.id, language);
      const listed = renderers.listArticles(after, language);
      const anchors = withItemAnchors(anchorsByScope.get(scope) ?? [], listed, cursorPosition, ARTICLE_LIST_ORDER).anchors;
      const old = renderers.listArticles(before, language);
      const inList = (a: PublicArticleSummary | null): a is PublicArticleSummary => a !== null && (language === null || translationIn(a, language) !== undefined);
      const indexes = new Set<number>();
      for (const [version, items] of [[was, old], [now, listed]] as const) {
        if (!inList(version)) continue;
        const range = anchorsShowing(anchors, items, cursorPosition, cursorPosition(version), DEFAULT_LIST_LIMIT, ARTICLE_LIST_ORDER);
        for (let i = range.from; i < range.to; i++) indexes.add(i);
      }
      if (inList(now)) indexes.add(firstNotBefore(anchors, (p) => p, cursorPosition(now), ARTICLE_LIST_ORDER));
      planned.push(...planArticlePages(channel, language, listed, anchors, renderers, cursors, [...indexes].filter((i) => i < anchors.length).sort((a, b) => a - b)));
    }
    return planned;
  }

  return {
    async preview(articleId) {
      const at = isoNow(deps.clock);
      const previewed = await deps.model.preview(articleId, at);
      if (!previewed) return null;
      const { article } = previewed;
      const [state, buildPending] = await Promise.all([deps.state(), deps.pending()]);
      // The channel object the live files were planned with, so their inputs compare by identity.
      const channel = state.channels.find((c) => c.id === article.channel.id) ?? article.channel;
      const summary: PublicArticleSummary = { ...previewed.summary, channel };
      // Taken now: the builder changes its maps in place when it next builds, which may be while this renders.
      const channels = state.channels;
      const liveGroups: ArticlesByChannel = new Map(state.byChannel);
      const before = liveGroups.get(channel.id) ?? [];
      const was = state.articles.get(articleId) ?? null;
      const after = Object.freeze([...before.filter((a) => a.id !== articleId), summary].sort(byPublication));
      const groups = new Map(liveGroups);
      groups.set(channel.id, after);
      const anchors = new Map(state.anchors);
      const render = renderOnce();

      const planned: PlannedBytes[] = [];
      const gone: Array<{ path: string; owner: string }> = [];
      // The article's own files: every one rendered; its recorded files the plan no longer makes are deleted.
      const own = planArticle(article, renderers, site);
      for (const file of own) planned.push({ path: file.path, owner: articleOwner(articleId), bytes: await render(file) });
      const ownPaths = new Set(own.map((f) => f.path));
      for (const path of (await filesOfOwners(deps.db, [articleOwner(articleId)])).keys()) if (!ownPaths.has(path)) gone.push({ path, owner: articleOwner(articleId) });
      // The channel's files (pages, lists, feeds, sitemap and llms parts) and the site's, against their live plans.
      const channelFiles = await renderAgainst(channelOwner(channel.id), planChannel(channel, after, renderers, cursors, site), planChannel(channel, before, renderers, cursors, site), render);
      const siteFiles = await renderAgainst(
        SITE_OWNER,
        planSite(channels, groups, renderers, cursors, site, deps.channelsUrl),
        planSite(channels, liveGroups, renderers, cursors, site, deps.channelsUrl),
        render,
      );
      planned.push(...channelFiles.files, ...siteFiles.files);
      gone.push(...channelFiles.gone, ...siteFiles.gone);
      for (const file of plannedPages(anchors, channel, before, after, was, summary)) planned.push({ path: file.path, owner: pagesOwner(channel.id), bytes: await render(file) });
      return { article, changedLanguages: previewed.changed, files: compareOutput(planned, live, gone), buildPending, at };
    },

    async page(articleId, language) {
      const previewed = await deps.model.preview(articleId, isoNow(deps.clock));
      if (!previewed || !previewed.article.translations.some((t) => t.language === language)) return null;
      return renderers.articleHtml(previewed.article, language, site);
    },
  };
}

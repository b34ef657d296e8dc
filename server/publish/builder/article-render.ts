/**
 * Renders and writes the files of article owners: reads the articles (with
 * bodies) from the store, renders each planned file, writes the ones whose
 * bytes changed (temp + rename; in the builder's thread through its output
 * queue) and reports every file's hash. The builder
 * records the manifest from the report. The same function runs in the
 * builder's thread (incremental builds, small sites) and in the render
 * workers (cold full builds), so both produce the same bytes.
 * @module
 */
import { textStartOf } from '../../read-model/selection.ts';
import type { SiteInfo } from '../../read-model/view-models.ts';
import type { OutputQueue } from '../../output/output-queue.ts';
import { hashContent, linkOrWrite, outputBytes, writeAtomically, writeIfChanged } from '../../output/output-writer.ts';
import type { ArticleHead, PublicModel } from '../../read-model/public-model.ts';
import { planArticle, type PlannedFile } from './site-plan.ts';
import type { Renderers } from '../../render/renderers.ts';
import type { ReaderTurns } from './reader-turns.ts';

/** What rendering one article owner did. */
export interface RenderedArticle {
  readonly id: number;
  /** The article's head, or null when it is no longer public (its files must go). */
  readonly head: ArticleHead | null;
  /** `textStart` of each published translation, by language. */
  readonly textStarts: Readonly<Record<string, string>>;
  /** Every file the owner produces now. */
  readonly files: ReadonlyArray<{ readonly path: string; readonly hash: string; readonly written: boolean }>;
}

/** What rendering needs. */
export interface ArticleRenderContext {
  readonly model: PublicModel;
  readonly renderers: Renderers;
  readonly site: SiteInfo;
  readonly outputDir: string;
  /** Where the files go; without it, each is written at once in this thread (the render workers). */
  readonly files?: OutputQueue;
  /** Asked before each render on the request thread, so readers are answered between files (none in the render workers). */
  readonly turns?: ReaderTurns;
}

/**
 * Renders the owners of `ids`. `known` gives the manifest's hash of a path,
 * so an unchanged file is recognised without reading it. With `fresh` (a
 * full build into a folder that held no file of the site), files are
 * written without first looking for one already there.
 */
export async function renderArticles(
  ctx: ArticleRenderContext,
  ids: readonly number[],
  known: (path: string) => string | undefined = () => undefined,
  fresh = false,
): Promise<RenderedArticle[]> {
  const loaded = new Map((await ctx.model.articlesWithHeads({ ids })).map((x) => [x.head.summary.id, x]));
  const results: RenderedArticle[] = [];
  for (const id of ids) {
    const found = loaded.get(id);
    if (!found) {
      results.push({ id, head: null, textStarts: {}, files: [] });
      continue;
    }
    const files: Array<{ path: string; hash: string; written: boolean }> = [];
    // The default language's copies share their render (`planArticle`): encoded and hashed once too.
    const made = new Map<PlannedFile['render'], { content: Uint8Array; hash: string; path: string }>();
    for (const file of planArticle(found.article, ctx.renderers, ctx.site)) {
      let bytes = made.get(file.render);
      const copy = bytes !== undefined;
      if (!bytes) {
        await ctx.turns?.between();
        const content = outputBytes(await file.render());
        made.set(file.render, (bytes = { content, hash: hashContent(content), path: file.path }));
      }
      const { content, hash } = bytes;
      let written = true;
      if (ctx.files) written = ctx.files.write(file.path, content, known(file.path), hash);
      // Into an empty folder a default-language copy is a second name of the file it copies: a quarter of a
      // cold build's files, and a third of its article bytes, never written.
      else if (fresh && copy) linkOrWrite(ctx.outputDir, bytes.path, file.path, content);
      // No `stat` first: the folder held none, and a `stat` per new file was a visible cost in every render worker.
      else if (fresh) writeAtomically(ctx.outputDir, file.path, content);
      else written = writeIfChanged(ctx.outputDir, file.path, content, known(file.path), hash);
      files.push({ path: file.path, hash, written });
    }
    const textStarts = Object.fromEntries(found.article.translations.map((t) => [t.language, textStartOf(t.prose)]));
    results.push({ id, head: found.head, textStarts, files });
  }
  return results;
}

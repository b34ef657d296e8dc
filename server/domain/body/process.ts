/**
 * One body, from what the publisher sent to what is stored and shown: the
 * limits, the canonical Markdown and its rendering. The unit of work of the
 * body pool (`server/bodies/body-pool.ts`), which runs it off the request
 * thread under a time limit; the content/ importer runs it in place.
 * @module
 */
import { prepareBody, type PrepareBodyInput } from './prepare.ts';
import { BODY_RENDER_VERSION, renderMarkdownBody, type RenderedBody } from './render.ts';
import { unresolvedImagesWarning, type BodyWarning } from './warnings.ts';
import { unresolvedImageSources } from './image-alt.ts';

export { BodyRejectedError } from './rejected.ts';

/** A publisher's body to prepare and render; exactly one of the two content fields is set. */
export type BodyJob = PrepareBodyInput & {
  /**
   * Exact replacements that saving will probably make in the prepared
   * Markdown (draft image URLs → the article's, `server/domain/media/attach.ts`).
   * The body is then rendered both ways, so the save need not render again
   * inside its transaction when they are made.
   */
  readonly rewrites?: ReadonlyArray<readonly [from: string, to: string]>;
};

/** A rendering of one exact Markdown text. */
export interface RenderedMarkdown extends RenderedBody {
  readonly markdown: string;
}

/** A prepared body and its rendering (`renderMarkdownBody(markdown)`, made by the renderer named by `version`), ready to store. */
export interface ProcessedBody extends RenderedBody {
  /** Canonical Markdown, as stored in `content_markdown`. */
  readonly markdown: string;
  readonly warnings: readonly BodyWarning[];
  readonly version: string;
  /** With `job.rewrites` that changed the Markdown: the rewritten Markdown and its rendering. */
  readonly rewritten?: RenderedMarkdown;
}

/** Prepares and renders one body in this thread. @throws BodyRejectedError */
export function processBody(job: BodyJob): ProcessedBody {
  const prepared = prepareBody(job);
  const rendered = renderMarkdownBody(prepared.markdown);
  const unresolved = unresolvedImagesWarning(unresolvedImageSources(rendered.html));
  const warnings = unresolved ? [...prepared.warnings, unresolved] : prepared.warnings;
  const body = { markdown: prepared.markdown, warnings, ...rendered, version: BODY_RENDER_VERSION };
  let markdown = prepared.markdown;
  for (const [from, to] of job.rewrites ?? []) markdown = markdown.split(from).join(to);
  if (markdown === prepared.markdown) return body;
  return { ...body, rewritten: { markdown, ...renderMarkdownBody(markdown) } };
}

/**
 * Runs bodies: the pool of worker threads in the service, in place in the
 * tools. @throws BodyRejectedError for a body refused for what it is.
 */
export interface BodyProcessor {
  /**
   * @param owner whose write it is (the account): the threads are shared between owners in turn.
   * @throws PressroomError ACCOUNT_BUSY when the owner has as many bodies waiting as it may.
   */
  process(job: BodyJob, owner?: string): Promise<ProcessedBody>;
}

/** Processes bodies in the calling thread (tools, tests, the content/ importer). */
export const inlineBodyProcessor: BodyProcessor = {
  process: async (job) => processBody(job),
};

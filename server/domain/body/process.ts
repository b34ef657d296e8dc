/**
 * One body, from what the publisher sent to what is stored and shown: the
 * limits, the canonical Markdown and its rendering. The unit of work of the
 * body pool (`server/bodies/body-pool.ts`), which runs it off the request
 * thread under a time limit; the content/ importer runs it in place.
 * @module
 */
import { prepareBody, type PrepareBodyInput } from './prepare.ts';
import { BODY_RENDER_VERSION, renderMarkdownBody } from './render.ts';
import type { BodyWarning } from './warnings.ts';

export { BodyRejectedError } from './rejected.ts';

/** A publisher's body to prepare and render; exactly one of the two content fields is set. */
export type BodyJob = PrepareBodyInput;

/** A prepared body and its rendering, ready to store. */
export interface ProcessedBody {
  /** Canonical Markdown, as stored in `content_markdown`. */
  readonly markdown: string;
  readonly warnings: readonly BodyWarning[];
  /** `renderMarkdownBody(markdown)`, made by the renderer named by `version`. */
  readonly html: string;
  readonly text: string;
  readonly version: string;
}

/** Prepares and renders one body in this thread. @throws BodyRejectedError */
export function processBody(job: BodyJob): ProcessedBody {
  const prepared = prepareBody(job);
  const rendered = renderMarkdownBody(prepared.markdown);
  return { markdown: prepared.markdown, warnings: prepared.warnings, html: rendered.html, text: rendered.text, version: BODY_RENDER_VERSION };
}

/**
 * Runs bodies: the pool of worker threads in the service, in place in the
 * tools. @throws BodyRejectedError for a body refused for what it is.
 */
export interface BodyProcessor {
  process(job: BodyJob): Promise<ProcessedBody>;
}

/** Processes bodies in the calling thread (tools, tests, the content/ importer). */
export const inlineBodyProcessor: BodyProcessor = {
  process: async (job) => processBody(job),
};

/**
 * The one rule for which rendering of a stored body is read. A body is
 * rendered when it is saved, and its HTML, text and link targets are kept
 * beside its Markdown with the name of the renderer that made them
 * (`BODY_RENDER_VERSION`). A kept rendering of another renderer (or none,
 * on rows older than migration 0006) is not used: the body is rendered
 * again in memory. Reads never store what they render; the rows of an older
 * renderer are rendered again and stored once, when the service starts
 * (`domain/article/refresh-renderings.ts`).
 * @module
 */
import { BODY_RENDER_VERSION, renderMarkdownBody, type RenderedBody } from './render.ts';

/** The columns a stored body keeps of its rendering (translations and revisions alike). */
export interface KeptRendering {
  readonly content_html: string | null;
  readonly content_text: string | null;
  readonly body_version: string | null;
  readonly link_targets: string | null;
  readonly content_prose: string | null;
}

/** The kept rendering, when the current renderer made it; null when it must be rendered again. */
export function storedRendering(row: KeptRendering): RenderedBody | null {
  if (row.body_version !== BODY_RENDER_VERSION || row.content_html === null || row.content_text === null || row.content_prose === null) return null;
  return { html: row.content_html, text: row.content_text, links: row.link_targets, prose: row.content_prose };
}

/**
 * The rendering of a stored body: the kept one when current, else rendered
 * now (`render`: a cache may stand in for `renderMarkdownBody`).
 */
export function currentRendering(
  row: KeptRendering & { readonly content_markdown: string },
  render: (markdown: string) => RenderedBody = renderMarkdownBody,
): RenderedBody {
  return storedRendering(row) ?? render(row.content_markdown);
}

/** The columns that keep `body`, made by the current renderer. */
export function keptColumns(body: RenderedBody): { content_html: string; content_text: string; body_version: string; link_targets: string | null; content_prose: string } {
  return { content_html: body.html, content_text: body.text, body_version: BODY_RENDER_VERSION, link_targets: body.links, content_prose: body.prose };
}

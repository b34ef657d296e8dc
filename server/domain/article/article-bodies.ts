/**
 * The bodies of a write, prepared before its transaction opens: each
 * translation's body is checked, made canonical and rendered (on the body
 * pool's threads when there is one), so the database never waits on a body.
 * What comes out is what `article-save.ts` stores.
 * @module
 */
import { BodyRejectedError, processBody, type BodyProcessor, type ProcessedBody, type RenderedMarkdown } from '../body/index.ts';
import { validationError } from '../errors.ts';
import type { ArticleWriteInput } from './article.schema.ts';
import type { WriteWarning } from './article-view.ts';

/** Content of one translation as stored, its rendered body included. */
export interface PreparedContent {
  language: string;
  title: string;
  excerpt: string | null;
  content_markdown: string;
  seo_title: string | null;
  seo_description: string | null;
  content_html: string;
  content_text: string;
  body_version: string;
  link_targets: string | null;
  content_prose: string;
}

/** A translation item of a write request: its text fields and exactly one body. */
export type ContentItem = { title: string; excerpt?: string | null; content_markdown?: string; content_html?: string; seo_title?: string | null; seo_description?: string | null };

function bodyField(item: ContentItem, fieldPrefix: string): string {
  return `${fieldPrefix}${item.content_html !== undefined ? 'content_html' : 'content_markdown'}`;
}

/** The warning of a translation whose summaries have nothing to be cut from. */
export const SUMMARY_WITHOUT_PARAGRAPH = 'SUMMARY_WITHOUT_PARAGRAPH';

function toContent(item: ContentItem, language: string, field: string, body: ProcessedBody, warnings: WriteWarning[]): PreparedContent {
  for (const w of body.warnings) warnings.push({ code: w.code, message: w.message, field });
  // Lists, feeds, descriptions and link previews summarise a translation by its excerpt, else by its body's
  // paragraphs (`prose.ts`): with neither, they show its title alone.
  if (!item.excerpt?.trim() && body.prose === '') {
    warnings.push({
      code: SUMMARY_WITHOUT_PARAGRAPH,
      message: `The "${language}" translation has no excerpt, and its body has no paragraph to summarise (only headings, lists, tables, code or images): lists, feeds and link previews will show its title alone. Send an excerpt, or begin the body with a paragraph of text.`,
      field: field.replace(/content_(markdown|html)$/, 'excerpt'),
    });
  }
  return {
    language,
    title: item.title,
    excerpt: item.excerpt ?? null,
    content_markdown: body.markdown,
    seo_title: item.seo_title ?? null,
    seo_description: item.seo_description ?? null,
    content_html: body.html,
    content_text: body.text,
    body_version: body.version,
    link_targets: body.links,
    content_prose: body.prose,
  };
}

/**
 * Prepares and renders one translation's body in this thread (the content/
 * importer, which is off the request path). @throws PressroomError
 * VALIDATION_FAILED naming the body field when the body is refused.
 */
export function prepare(item: ContentItem, language: string, fieldPrefix: string, warnings: WriteWarning[]): PreparedContent {
  const field = bodyField(item, fieldPrefix);
  try {
    return toContent(item, language, field, processBody(jobOf(item)), warnings);
  } catch (error) {
    if (error instanceof BodyRejectedError) throw validationError({ [field]: error.message });
    throw error;
  }
}

function jobOf(item: ContentItem, rewrites?: ReadonlyArray<readonly [string, string]>) {
  return { title: item.title, contentMarkdown: item.content_markdown, contentHtml: item.content_html, ...(rewrites && rewrites.length > 0 ? { rewrites } : {}) };
}

/** One translation of a write, with the prefix of its fields in a 422 (`translations.0.`, or '' for a single translation). */
export interface ContentRequest {
  readonly item: ContentItem;
  readonly language: string;
  readonly fieldPrefix: string;
  /** The draft image URL rewrites the save will probably make (`plannedDraftRewrites`), rendered ahead too. */
  readonly rewrites?: ReadonlyArray<readonly [string, string]>;
}

/** Prepared bodies, and for each the rendering of its Markdown with the planned rewrites made, when they change it. */
export interface PreparedContents {
  contents: PreparedContent[];
  warnings: WriteWarning[];
  rewritten: Array<RenderedMarkdown | undefined>;
}

/**
 * Prepares and renders the bodies of a write through `bodies` (the body
 * pool, off the request thread), before any transaction is opened: a body
 * can take seconds, and the database must not wait on it. `owner` (the
 * writing account) shares the threads fairly with other accounts.
 * @throws PressroomError VALIDATION_FAILED naming every refused body field, with the limit and how to fix it.
 * @throws PressroomError ACCOUNT_BUSY when the owner has as many bodies waiting as it may.
 */
export async function prepareContents(
  bodies: BodyProcessor | undefined,
  requests: readonly ContentRequest[],
  owner?: string,
): Promise<PreparedContents> {
  if (!bodies) {
    const warnings: WriteWarning[] = [];
    return { contents: requests.map((r) => prepare(r.item, r.language, r.fieldPrefix, warnings)), warnings, rewritten: [] };
  }
  const settled = await Promise.allSettled(requests.map((r) => bodies.process(jobOf(r.item, r.rewrites), owner)));
  const refused: Record<string, string> = {};
  for (const [i, result] of settled.entries()) {
    if (result.status === 'fulfilled') continue;
    if (!(result.reason instanceof BodyRejectedError)) throw result.reason;
    refused[bodyField(requests[i]!.item, requests[i]!.fieldPrefix)] = result.reason.message;
  }
  if (Object.keys(refused).length > 0) throw validationError(refused);
  const warnings: WriteWarning[] = [];
  const bodiesDone = settled.map((result) => (result as PromiseFulfilledResult<ProcessedBody>).value);
  const contents = bodiesDone.map((body, i) => toContent(requests[i]!.item, requests[i]!.language, bodyField(requests[i]!.item, requests[i]!.fieldPrefix), body, warnings));
  return { contents, warnings, rewritten: bodiesDone.map((body) => body.rewritten) };
}

/** The bodies of a write request, as `prepareContents` takes them. */
export function contentRequests(input: ArticleWriteInput, rewrites?: ReadonlyArray<readonly [string, string]>): ContentRequest[] {
  return input.translations.map((t, i) => ({ item: t, language: t.language, fieldPrefix: `translations.${i}.`, ...(rewrites ? { rewrites } : {}) }));
}


/**
 * Entry point for storing a publisher's body.
 * @module
 */

import { normaliseHtmlBody } from './html-input.ts';
import { checkHtmlBody, checkMarkdownBody } from './limits.ts';
import { normaliseMarkdownBody } from './markdown-input.ts';
import { BodyRejectedError } from './rejected.ts';
import { changesToWarnings, noChanges, type BodyWarning } from './warnings.ts';
import { InternalError } from '../../internal-error.ts';

/** A publisher's body; exactly one of the two content fields is set. */
export interface PrepareBodyInput {
  /** Stored separately and rendered as the H1; used to spot a repeated title heading. */
  title: string;
  contentMarkdown?: string;
  contentHtml?: string;
}

/** The canonical Markdown to store, and what had to change to get it. */
export interface PreparedBody {
  markdown: string;
  warnings: BodyWarning[];
}

/**
 * Turns a publisher's body (Markdown or HTML) into the stored canonical
 * Markdown. Every article is stored as Markdown so rendering, excerpts and
 * editing have one format to deal with.
 * The body is checked against `BODY_LIMITS` before any parser sees it, and
 * the Markdown an HTML body converts to again (HTML nesting becomes Markdown
 * nesting).
 * @throws BodyRejectedError for a body over one of the limits.
 * @throws Error when neither (or both) of contentMarkdown / contentHtml is
 *   given — callers validate this, so it signals a programming error.
 */
export function prepareBody(input: PrepareBodyInput): PreparedBody {
  const { title, contentMarkdown, contentHtml } = input;
  if ((contentMarkdown === undefined) === (contentHtml === undefined)) {
    throw new InternalError('INVARIANT_BROKEN', 'prepareBody needs exactly one of contentMarkdown or contentHtml');
  }
  const problem = contentMarkdown !== undefined ? checkMarkdownBody(contentMarkdown) : checkHtmlBody(contentHtml ?? '');
  if (problem) throw BodyRejectedError.over(problem);
  const changes = noChanges();
  const markdown =
    contentMarkdown !== undefined
      ? normaliseMarkdownBody(contentMarkdown, title, changes)
      : normaliseHtmlBody(contentHtml ?? '', title, changes);
  if (contentHtml !== undefined) {
    const converted = checkMarkdownBody(markdown);
    if (converted) throw BodyRejectedError.over(converted, true);
  }
  return { markdown, warnings: changesToWarnings(changes) };
}

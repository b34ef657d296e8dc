/**
 * Entry point for storing a publisher's body.
 * @module
 */

import { normaliseHtmlBody } from './html-input.ts';
import { normaliseMarkdownBody } from './markdown-input.ts';
import { changesToWarnings, noChanges, type BodyWarning } from './warnings.ts';

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
 * @throws Error when neither (or both) of contentMarkdown / contentHtml is
 *   given — callers validate this, so it signals a programming error.
 */
export function prepareBody(input: PrepareBodyInput): PreparedBody {
  const { title, contentMarkdown, contentHtml } = input;
  if ((contentMarkdown === undefined) === (contentHtml === undefined)) {
    throw new Error('prepareBody needs exactly one of contentMarkdown or contentHtml');
  }
  const changes = noChanges();
  const markdown =
    contentMarkdown !== undefined
      ? normaliseMarkdownBody(contentMarkdown, title, changes)
      : normaliseHtmlBody(contentHtml ?? '', title, changes);
  return { markdown, warnings: changesToWarnings(changes) };
}

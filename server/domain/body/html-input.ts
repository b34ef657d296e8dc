/**
 * Normalisation of an HTML body into canonical Markdown.
 *
 * Order matters: bidi controls go first (they may hide in attributes), the
 * `dir` rule runs before the sanitiser so it can warn and lowercase, and
 * the title/H1 rules run after it, on the same structure that gets
 * converted.
 * @module
 */

import type { Root } from 'hast';
import { sanitize } from 'hast-util-sanitize';
import { stripBidiControls, stripBidiInTree } from './bidi.ts';
import { stripForbiddenCodePoints } from './forbidden-code-points.ts';
import { enforceDir } from './dir.ts';
import { demoteH1Hast, removeTitleHeadingHast } from './headings.ts';
import { hastToMarkdown } from './html-to-markdown.ts';
import { parseHtmlFragment } from './processors.ts';
import { describeRemovals, takeInventory } from './sanitize-report.ts';
import { removeImagesWithoutAlt } from './image-alt.ts';
import { DIR_BLOCK_TAGS, PREPARE_SCHEMA, schemaKeepsTag } from './schema.ts';
import type { BodyChanges } from './warnings.ts';

// h1 may carry `dir` here because it is demoted to h2, which accepts it.
const PREPARE_DIR_TAGS: ReadonlySet<string> = new Set([...DIR_BLOCK_TAGS, 'h1']);

/**
 * Sanitises an HTML body, applies the heading, bidi and `dir` rules and
 * converts it to Markdown, recording what changed in `changes`.
 */
export function normaliseHtmlBody(html: string, title: string, changes: BodyChanges): string {
  const bidi = stripBidiControls(html);
  const raw = stripForbiddenCodePoints(bidi.text);
  changes.controlsStripped += raw.count;
  const parsed = parseHtmlFragment(raw.text);
  changes.bidiStripped += bidi.count + stripBidiInTree(parsed);

  changes.dirRemoved += enforceDir(parsed, {
    blockTags: PREPARE_DIR_TAGS,
    ignore: (element) => !schemaKeepsTag(PREPARE_SCHEMA, element.tagName),
  });

  const before = takeInventory(parsed);
  const clean = sanitize(parsed, PREPARE_SCHEMA) as Root;
  changes.htmlRemoved.push(...describeRemovals(before, takeInventory(clean)));
  changes.imagesWithoutAlt += removeImagesWithoutAlt(clean);

  if (removeTitleHeadingHast(clean, title)) changes.titleHeadingRemoved = true;
  changes.h1Demoted += demoteH1Hast(clean);

  return hastToMarkdown(clean);
}

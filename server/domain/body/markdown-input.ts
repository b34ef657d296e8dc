/**
 * Normalisation of a Markdown body.
 *
 * Publishers' Markdown is kept byte-for-byte where possible: it is what they
 * will see when they edit again, and a round trip through a serialiser
 * rewrites their style. Only structural fixes (title heading, H1) and
 * unsafe parts (raw HTML the allowlist drops, `javascript:` links…) force
 * re-serialisation; bidi controls typed as characters are simply deleted
 * from the text, which cannot change the Markdown structure.
 * @module
 */

import { toString as hastToString } from 'hast-util-to-string';
import type { Heading, Html, Root, RootContent } from 'mdast';
import { stripBidiControls, stripBidiInTree } from './bidi.ts';
import { stripForbiddenCodePoints } from './forbidden-code-points.ts';
import { headingRepeatsTitle, isHeadingElement } from './headings.ts';
import { keepParsedBody } from './parsed-bodies.ts';
import { parseHtmlFragment, parseMarkdown, stringifyMarkdown } from './processors.ts';
import { sanitiseMarkdownTree, stabilise } from './safe-markdown.ts';
import { eachNode } from './tree-walk.ts';
import type { BodyChanges } from './warnings.ts';

// Raw HTML inside Markdown can hold an H1 too; it is retagged in place.
const HTML_H1_OPEN = /<h1(?=[\s/>])/gi;
const HTML_H1_CLOSE = /<\/h1\s*>/gi;

/** Plain text of an mdast subtree (text, inline code, and alt of images). */
function mdastText(node: RootContent | Root): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if (node.type === 'image') return node.alt ?? '';
  return 'children' in node ? node.children.map((child) => mdastText(child)).join('') : '';
}

// A leading raw HTML block counts as a title heading when it is exactly one
// heading element, e.g. `<h1>Title</h1>`.
function htmlHeadingText(node: Html): string | null {
  const nodes = parseHtmlFragment(node.value).children.filter(
    (child) => !(child.type === 'text' && child.value.trim() === '') && child.type !== 'comment',
  );
  const only = nodes[0];
  return nodes.length === 1 && only && isHeadingElement(only) ? hastToString(only) : null;
}

function firstBlockRepeatsTitle(tree: Root, title: string): boolean {
  const first = tree.children[0];
  if (first?.type === 'heading') return headingRepeatsTitle(mdastText(first), title);
  if (first?.type === 'html') {
    const text = htmlHeadingText(first);
    return text !== null && headingRepeatsTitle(text, title);
  }
  return false;
}

function demoteH1Mdast(tree: Root): number {
  let count = 0;
  eachNode(tree, (node) => {
    if (node.type === 'heading' && (node as Heading).depth === 1) {
      (node as Heading).depth = 2;
      count++;
    } else if (node.type === 'html') {
      const html = node as Html;
      html.value = html.value.replace(HTML_H1_OPEN, () => {
        count++;
        return '<h2';
      });
      html.value = html.value.replace(HTML_H1_CLOSE, '</h2>');
    }
  });
  return count;
}

/**
 * Applies the heading and bidi rules to a Markdown body, recording what
 * changed in `changes`. Returns the input (trailing whitespace trimmed, one
 * final newline) when no structural change was needed; the rules are
 * judged on that text.
 */
export function normaliseMarkdownBody(markdown: string, title: string, changes: BodyChanges): string {
  const bidi = stripBidiControls(markdown);
  changes.bidiStripped += bidi.count;
  // Controls HTML forbids go too, as the page would drop them: the .md and JSON then say what the page says.
  const raw = stripForbiddenCodePoints(bidi.text);
  changes.controlsStripped += raw.count;
  // What is stored when no rule changes anything: the text, trailing whitespace trimmed, one final newline.
  // The rules judge that text's tree, which the render then reuses instead of parsing it again (bodies sent
  // without a final newline, as most are, were parsed twice).
  const trimmed = raw.text.trimEnd();
  const stored = trimmed === '' ? '' : `${trimmed}\n`;
  const tree = parseMarkdown(stored);

  // Controls written as character references only exist after parsing;
  // removing them from the tree means the text must be re-serialised.
  const encodedBidi = stripBidiInTree(tree);
  changes.bidiStripped += encodedBidi;

  const titleRemoved = firstBlockRepeatsTitle(tree, title);
  if (titleRemoved) {
    tree.children.shift();
    changes.titleHeadingRemoved = true;
  }
  const demoted = demoteH1Mdast(tree);
  changes.h1Demoted += demoted;

  // Last, so it sees the HTML the heading rules rewrote; the public Markdown
  // carries no more than the rendered HTML does (safe-markdown.ts).
  if (sanitiseMarkdownTree(tree, changes)) return stabilise(tree, changes);

  if (encodedBidi > 0 || titleRemoved || demoted > 0) return stringifyMarkdown(tree);
  keepParsedBody(stored, tree);
  return stored;
}

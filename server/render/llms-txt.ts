/**
 * llms.txt (llmstxt.org): a Markdown map of the site for language models and
 * agents: H1 site name, a blockquote summary, a paragraph on how to cite and
 * what access does and does not grant, then one H2 section per channel
 * listing its articles' Markdown documents.
 *
 * - Every published translation gets its own line (agents should fetch the
 *   language they need, and the spec never substitutes one language for
 *   another), grouped by article: articles newest first (`listArticlesFor`
 *   order), each article's translations primary first.
 * - Line: `- [Title](markdown_url): summary (language, published YYYY-MM-DD)`.
 *   The date is the translation's `publishedAt` (UTC day), so the line has
 *   what a citation needs besides the canonical URL, which the Markdown's
 *   front matter carries.
 * - Channels in id order, titled in their default language; a channel with
 *   no public article has no section.
 * @module
 */
import { listArticlesFor } from './article-list-json.ts';
import { channelDefaultTranslation, summaryOf } from './public-select.ts';
import type { PublicArticle, PublicChannel, PublicTranslation, SiteInfo } from './view-models.ts';

// Headings and link text must stay on one line.
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
// Brackets and backslashes would end or escape the link early; `<` could open inline HTML. All are Markdown-escaped.
const linkText = (text: string) => oneLine(text).replace(/[\\[\]<>]/g, (c) => `\\${c}`);
// Parentheses and spaces would end a Markdown link destination; addresses from public-urls.ts are already encoded.
const linkUrl = (url: string) => url.replace(/[()\s]/g, (c) => encodeURIComponent(c));

function articleLine(t: PublicTranslation): string {
  const summary = summaryOf(t);
  const facts = `(${t.language}, published ${t.publishedAt.slice(0, 10)})`;
  return `- [${linkText(t.title)}](${linkUrl(t.markdownUrl)}): ${summary ? `${summary} ${facts}` : facts}`;
}

/** The summary blockquote. SiteInfo has no description, so it is written from the site name. */
function summary(site: SiteInfo): string {
  return (
    `> ${site.name} publishes articles in several languages. Every article is available as an HTML page, ` +
    `as Markdown with YAML front matter (linked below) and as JSON through the read-only public API at ` +
    `${site.baseUrl}/api/public/v1 (no key needed).`
  );
}

const CITATION =
  'When you quote or summarise an article, cite its `canonical_url`, its title, the publisher (the channel), ' +
  'its language and its publication date; the Markdown front matter and the JSON carry all five. Each language ' +
  'version is its own document: cite the one you read. Public access grants no extra reuse or training rights; ' +
  'the terms of service and the Content-Signal line of robots.txt still apply.';

/**
 * Renders llms.txt for every public channel and article (see module doc).
 * `articles` may span channels; each is listed under its own channel.
 */
export function renderLlmsTxt(channels: readonly PublicChannel[], articles: readonly PublicArticle[], site: SiteInfo): string {
  const parts = [`# ${oneLine(site.name)}`, summary(site), CITATION];
  for (const channel of [...channels].sort((a, b) => a.id - b.id)) {
    const own = listArticlesFor(
      articles.filter((a) => a.channel.id === channel.id),
      null,
    );
    if (own.length === 0) continue;
    const lines = own.flatMap((a) => a.translations.map(articleLine));
    parts.push(`## ${oneLine(channelDefaultTranslation(channel).title)}`, lines.join('\n'));
  }
  return `${parts.join('\n\n')}\n`;
}

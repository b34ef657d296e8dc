/**
 * llms.txt (llmstxt.org): a Markdown map of the site for language models and
 * agents: H1 site name, a blockquote summary, a paragraph on how to cite and
 * what access does and does not grant, then one H2 section per channel.
 *
 * Split so that a publish costs what it touches, not the site's size (a
 * 10k-article site's full list is megabytes): `/llms.txt` gives each
 * channel's `LLMS_RECENT_ARTICLES` newest articles and links the channel's
 * own `/{channel}/llms.txt`, which gives its `LLMS_CHANNEL_ARTICLES` newest
 * and links `/{channel}/llms-{n}.txt`, one per part of its articles
 * (`articleParts`: 100 each, in id order). Together the parts list every
 * article of the channel; a publish re-renders only its article's part (and
 * the channel's file when the article is among its newest).
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
 * - Shaped for the proposal's reference parser (`parse_llms_file` of the
 *   `llms_txt` package, ported in test/validate/llms-txt-parser.ts): every
 *   line of an H2 section is a link item (the prose is in the part before
 *   the first H2, or a link's note after `: `); H2 titles are unique (a
 *   parser keeps sections by title); a `]` in a link text is the character
 *   reference `&#93;`, because the parser ends a link text at the first
 *   `]`, escaped or not.
 * @module
 */
import { escapeMarkdownText, markdownLinkDestination } from '../domain/body/markdown-escape.ts';
import { articleParts, channelDefaultTranslation, ofChannel, summaryOf, listArticlesFor } from '../read-model/selection.ts';
import { memoForOneBuild } from '../read-model/identity-memo.ts';
import type { ArticlesByChannel, PublicArticleSummary, PublicChannel, PublicTranslationSummary, SiteInfo } from '../read-model/view-models.ts';

/** Articles of each channel listed in `/llms.txt` itself. */
export const LLMS_RECENT_ARTICLES = 10;
/** Articles listed in a channel's own `/{channel}/llms.txt`; its parts list them all. */
export const LLMS_CHANNEL_ARTICLES = 50;

// Titles, summaries and the site name are publishers' text: on one line and
// escaped, so they cannot add links, HTML, headings or lines to the file.
const text = escapeMarkdownText;
/** Link text: `text`, with `]` as a character reference (see module doc). */
const linkText = (value: string) => escapeMarkdownText(value).replace(/\\(.)/g, (escape, c: string) => (c === ']' ? '&#93;' : escape));
// Parentheses and spaces would end a Markdown link destination; addresses from public-urls.ts are already encoded.
const linkUrl = markdownLinkDestination;

// A line depends on its translation alone (the identity rule, `read-model/identity-memo.ts`), so a
// channel's file re-writes only the lines of the articles that changed (after a full build, those it needs again).
const articleLine = memoForOneBuild((t: PublicTranslationSummary): string => {
  const summary = summaryOf(t);
  const facts = `(${t.language}, published ${t.publishedAt.slice(0, 10)})`;
  return `- [${linkText(t.title)}](${linkUrl(t.markdownUrl)}): ${summary ? `${text(summary)} ${facts}` : facts}`;
});

/** The summary blockquote. SiteInfo has no description, so it is written from the site name. */
function summary(site: SiteInfo): string {
  return (
    `> ${text(site.name)} publishes articles in several languages. Every article is available as an HTML page, ` +
    `as Markdown with YAML front matter (linked below) and as JSON through the read-only public API at ` +
    `${site.baseUrl}/api/public/v1 (no key needed).`
  );
}

const CITATION =
  'When you quote or summarise an article, cite its `canonical_url`, its title, the publisher (the channel), ' +
  'its language and its publication date; the Markdown front matter and the JSON carry all five. Each language ' +
  'version is its own document: cite the one you read. Public access grants no extra reuse or training rights; ' +
  'the terms of service and the Content-Signal line of robots.txt still apply.';

/** Address of a channel's own llms.txt (`/{channel}/llms.txt`). */
export const channelLlmsUrl = (channel: PublicChannel) => `${channel.htmlUrl}llms.txt`;
/** Address of part `n` (from 1) of a channel's complete list (`/{channel}/llms-{n}.txt`). */
export const channelLlmsPartUrl = (channel: PublicChannel, n: number) => `${channel.htmlUrl}llms-${n}.txt`;

/** The channel's articles among `articles`, newest first, as llms.txt lines. */
const linesOf = (channel: PublicChannel, articles: readonly PublicArticleSummary[], max = Infinity) =>
  listArticlesFor(ofChannel(channel.id, articles), null)
    .slice(0, max)
    .flatMap((a) => a.translations.map(articleLine));

/**
 * H2 titles of the channels in `/llms.txt`: their default-language titles,
 * with the channel's address after any title two channels share, so that
 * every section keeps its own name.
 */
function sectionTitles(channels: readonly PublicChannel[]): Map<number, string> {
  const count = new Map<string, number>();
  for (const c of channels) {
    const title = text(channelDefaultTranslation(c).title);
    count.set(title, (count.get(title) ?? 0) + 1);
  }
  return new Map(
    channels.map((c) => {
      const title = text(channelDefaultTranslation(c).title);
      return [c.id, count.get(title)! > 1 ? `${title} (${c.htmlUrl})` : title];
    }),
  );
}

/**
 * Renders `/llms.txt` (see module doc): each channel's newest articles
 * (`articles` by channel id) under it, after a link to its full list.
 */
export function renderLlmsTxt(channels: readonly PublicChannel[], articles: ArticlesByChannel, site: SiteInfo): string {
  const parts = [`# ${text(site.name)}`, summary(site), CITATION];
  const listed = [...channels].sort((a, b) => a.id - b.id).filter((c) => (articles.get(c.id) ?? []).length > 0);
  const titles = sectionTitles(listed);
  for (const channel of listed) {
    const title = linkText(channelDefaultTranslation(channel).title);
    const all = `- [${title}: every article](${linkUrl(channelLlmsUrl(channel))}): the channel's own llms.txt, with its ${LLMS_CHANNEL_ARTICLES} newest articles and links to lists of all of them`;
    parts.push(`## ${titles.get(channel.id)!}`, [all, ...linesOf(channel, articles.get(channel.id)!, LLMS_RECENT_ARTICLES)].join('\n'));
  }
  return `${parts.join('\n\n')}\n`;
}

/**
 * Renders `/{channel}/llms.txt`: the same header, the channel's
 * `LLMS_CHANNEL_ARTICLES` newest articles (of `articles`, those in it), then
 * a link to each part of its complete list. A channel without public
 * articles gets the header and an empty section.
 */
export function renderChannelLlmsTxt(channel: PublicChannel, articles: readonly PublicArticleSummary[], site: SiteInfo): string {
  const title = text(channelDefaultTranslation(channel).title);
  const own = ofChannel(channel.id, articles);
  const lines = linesOf(channel, own, LLMS_CHANNEL_ARTICLES);
  const parts = [`# ${title} · ${text(site.name)}`, summary(site), CITATION, '## Newest articles'];
  if (lines.length > 0) parts.push(lines.join('\n'));
  const count = articleParts(own).length;
  if (count > 0) {
    const name = linkText(channelDefaultTranslation(channel).title);
    const links = Array.from(
      { length: count },
      (_, i) => `- [${name}, part ${i + 1}](${linkUrl(channelLlmsPartUrl(channel, i + 1))}): part ${i + 1} of ${count} of every article, up to 100 each, oldest articles first`,
    );
    parts.push('## Every article', links.join('\n'));
  }
  return `${parts.join('\n\n')}\n`;
}

/**
 * Renders `/{channel}/llms-{n}.txt`: the same header, then every published
 * translation of the articles of part `n` (`part`, those of it in the
 * channel), newest first.
 */
export function renderChannelLlmsPart(channel: PublicChannel, part: readonly PublicArticleSummary[], n: number, site: SiteInfo): string {
  const title = text(channelDefaultTranslation(channel).title);
  const lines = linesOf(channel, part);
  const parts = [`# ${title}, part ${n} · ${text(site.name)}`, summary(site), CITATION, `## Part ${n}`];
  if (lines.length > 0) parts.push(lines.join('\n'));
  return `${parts.join('\n\n')}\n`;
}

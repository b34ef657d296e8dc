/**
 * A translation's body as the public documents give it: the Markdown of the
 * `.md` file and the JSON's `content_markdown`, and the JSON's
 * `content_html`, each with relative link targets made absolute against the
 * translation's page. Made once per model object (the identity rule,
 * `read-model/identity-memo.ts`): the JSON and the Markdown document of a
 * translation are rendered from the same object in one build.
 * @module
 */
import { readLinkTargets } from '../domain/body/link-targets.ts';
import { publicMarkdown } from '../domain/body/safe-markdown.ts';
import { memoByIdentity } from '../read-model/identity-memo.ts';
import { absoluteHtmlLinks, absoluteMarkdownLinks } from './absolute-links.ts';

interface MarkdownBody {
  readonly markdown: string;
  readonly htmlUrl: string;
  readonly linkTargets?: string | null;
}

interface HtmlBody {
  readonly html: string;
  readonly htmlUrl: string;
}

const publicBodies = memoByIdentity((t: MarkdownBody) => {
  const markdown = publicMarkdown(t.markdown);
  // Stored targets spare the parse; missing or not fitting the text, they are found again.
  return absoluteMarkdownLinks(markdown, t.htmlUrl, readLinkTargets(t.linkTargets, markdown) ?? undefined);
});
const publicHtmlBodies = memoByIdentity((t: HtmlBody) => absoluteHtmlLinks(t.html, t.htmlUrl));

/**
 * The body of a translation as the public Markdown outputs give it
 * (`publicMarkdown`: safe even when stored before the safe-Markdown rule),
 * with its relative link targets made absolute (`absoluteMarkdownLinks`, at
 * the places stored with the body when there are some).
 */
export function publicBodyOf(translation: MarkdownBody): string {
  return publicBodies(translation);
}

/** The rendered body for the JSON's `content_html`, its relative targets made absolute (`absoluteHtmlLinks`). */
export function publicHtmlOf(translation: HtmlBody): string {
  return publicHtmlBodies(translation);
}

/**
 * The rendered body as the article page shows it: relative targets resolved
 * against the translation's canonical page, as in the JSON and Markdown, and
 * those on the site's own origin written root-relative (`/tech/en/other`), as
 * the page's other links are. The page then means the same at each address
 * it is served from (its default copy at `/{channel}/{article}`, a host's
 * `/{channel}/{article}/`), and the same as its Markdown: a publisher's
 * `../other-channel/slug` names one address everywhere (issue 34).
 */
export function pageHtmlOf(translation: HtmlBody, origin: string): string {
  return absoluteHtmlLinks(translation.html, translation.htmlUrl, (absolute) => (absolute.startsWith(`${origin}/`) ? absolute.slice(origin.length) : absolute));
}

/**
 * The standalone Markdown document of one translation
 * (`getPublicArticleMarkdown`): YAML front matter, a blank line, the full
 * body. It is what agents and citation tools read, so the front matter
 * carries everything needed to cite the text without fetching anything else.
 *
 * Front matter keys, in this order (docs/OUTPUTS.md):
 * schema_version, title, language, default_language, canonical_url,
 * image ({url, alt} or null), publisher {name, url}, author (name or null), published_at, updated_at,
 * excerpt (or null), json_url, translations [{language, title, markdown_url,
 * html_url}] (every published translation, this one included, primary first).
 *
 * The body is the stored Markdown made safe (`publicMarkdown`, via `publicBodyOf`): raw HTML
 * reduced to what the rendered page allows, no `javascript:`-style targets.
 *
 * The YAML reads the same under YAML 1.1 and 1.2 (`front-matter-yaml.ts`):
 * every string double-quoted, characters that 1.1 reads as line breaks or
 * that are not printable escaped. Quoting also means a title with `:`,
 * quotes, newlines or RTL text cannot change the structure.
 * @module
 */
import { SCHEMA_VERSION } from '../read-model/wire.ts';
import { frontMatterYaml } from './front-matter-yaml.ts';
import { channelVersion, requireTranslation } from '../read-model/selection.ts';
import { publicBodyOf } from './public-body.ts';
import type { PublicArticle } from '../read-model/view-models.ts';

/**
 * Renders the Markdown document of `article` in exactly `language`.
 *
 * A body that itself starts with `---` cannot end the front matter early:
 * the front matter is closed by our own `---` line before the body begins,
 * and the YAML above it never has a line starting with `---` (every value is
 * quoted on its key's line; nested values are indented).
 * @throws RangeError when that translation is not published (the caller answers 404, rule 1).
 */
export function renderArticleMarkdown(article: PublicArticle, language: string): string {
  const translation = requireTranslation(article, language);
  const channel = channelVersion(article.channel, language);
  const frontMatter = {
    schema_version: SCHEMA_VERSION,
    title: translation.title,
    language: translation.language,
    default_language: article.defaultLanguage,
    canonical_url: translation.htmlUrl,
    image: translation.image ? { url: translation.image.url, alt: translation.image.alt } : null,
    publisher: { name: channel.title, url: channel.htmlUrl },
    author: article.author?.name ?? null,
    published_at: translation.publishedAt,
    updated_at: translation.updatedAt,
    excerpt: translation.excerpt,
    json_url: translation.jsonUrl,
    translations: article.translations.map((t) => ({
      language: t.language,
      title: t.title,
      markdown_url: t.markdownUrl,
      html_url: t.htmlUrl,
    })),
  };
  const yaml = frontMatterYaml(frontMatter);
  // Trailing blank lines of the stored body are dropped so the file ends with exactly one newline.
  // publicMarkdown: bodies stored before the safe-Markdown rule may still hold unsafe HTML or links.
  const body = publicBodyOf(translation).trimEnd();
  return body === '' ? `---\n${yaml}---\n` : `---\n${yaml}---\n\n${body}\n`;
}

/**
 * The Markdown part of the output validation suite (docs/OUTPUTS.md,
 * "Validation"): the body of every `.md` file (front matter removed with
 * gray-matter) and the `content_markdown` of every article JSON document of
 * an output folder, rendered by markdown-it as an agent or another site
 * would. Every link and image target must be absolute (or a fragment of the
 * same document), and every one on the site must answer from the output
 * folder as the bundled server maps it (`site-links.ts`); other sites are
 * not fetched.
 *
 * Returns problems as text ("file: what"), empty when everything passes.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import MarkdownIt from 'markdown-it';
import { siteFileFor } from './site-links.ts';

type Token = ReturnType<MarkdownIt['parse']>[number];

function targetsOf(tokens: readonly Token[], out: string[] = []): string[] {
  for (const token of tokens) {
    if (token.type === 'link_open') out.push(token.attrGet('href') ?? '');
    if (token.type === 'image') out.push(token.attrGet('src') ?? '');
    if (token.type === 'html_inline' || token.type === 'html_block') {
      for (const m of token.content.matchAll(/\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) out.push((m[1] ?? m[2]!).replace(/&amp;/g, '&'));
    }
    if (token.children) targetsOf(token.children, out);
  }
  return out;
}

/** Markdown bodies of `distDir`: every `.md` file's, and every article JSON's `content_markdown`. */
function bodies(distDir: string): { file: string; markdown: string }[] {
  const files = (fs.readdirSync(distDir, { recursive: true, encoding: 'utf8' }) as string[]).sort();
  const out: { file: string; markdown: string }[] = [];
  for (const file of files) {
    if (file.startsWith('pagefind') || file.startsWith('media')) continue;
    if (file.endsWith('.md')) out.push({ file, markdown: matter(fs.readFileSync(path.join(distDir, file), 'utf8')).content });
    else if (file.endsWith('.json') && file.includes('/articles/')) {
      const json = JSON.parse(fs.readFileSync(path.join(distDir, file), 'utf8')) as { content_markdown?: unknown };
      if (typeof json.content_markdown === 'string') out.push({ file: `${file} content_markdown`, markdown: json.content_markdown });
    }
  }
  return out;
}

/** Checks every Markdown body of `distDir` for the site at `baseUrl` (see module doc). */
export async function checkMarkdown(distDir: string, baseUrl: string): Promise<string[]> {
  const md = new MarkdownIt({ html: true, linkify: true });
  const problems: string[] = [];
  for (const { file, markdown } of bodies(distDir)) {
    let tokens: Token[];
    try {
      tokens = md.parse(markdown, {});
      md.renderer.render(tokens, md.options, {});
    } catch (error) {
      problems.push(`${file}: markdown-it fails: ${(error as Error).message}`);
      continue;
    }
    for (const target of targetsOf(tokens)) {
      if (target.startsWith('#')) continue;
      const resolved = siteFileFor(target, baseUrl, distDir);
      if ('problem' in resolved) problems.push(`${file}: ${resolved.problem}`);
    }
  }
  return problems;
}

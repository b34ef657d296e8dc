import { describe, expect, it } from 'vitest';
import { validationError } from '../domain/errors.ts';
import { buildArticleInput, errorsByFile } from './article-input.ts';
import type { ArticleFolder } from './content-tree.ts';

const NOW = '2026-11-22T12:00:00.000Z';

function folder(name: string, files: Record<string, string>): ArticleFolder {
  return {
    name,
    rel: `journal/${name}`,
    files: Object.entries(files).map(([file, text]) => ({ name: file, rel: `journal/${name}/${file}`, bytes: Buffer.from(text) })),
    refused: [],
  };
}

const en = '---\ntitle: Hello\nstatus: published\n---\n\n## Part\n\nText.\n';
const ar = '---\ntitle: مرحبا\n---\n## قسم\n\nنص.\n';

describe('buildArticleInput', () => {
  it('builds the API write input: slug from the folder, primary first, status from the primary file', () => {
    const build = buildArticleInput(folder('hello', { 'ar.md': ar, 'en.md': en }), 'en', NOW);
    expect(build.ok).toBe(true);
    if (!build.ok) return;
    expect(build.input).toEqual({
      slug: 'hello',
      default_language: 'en',
      status: 'published',
      homepage_mode: 'inherit',
      author: null,
      publish_translations: true,
      translations: [
        { language: 'en', title: 'Hello', excerpt: null, seo_title: null, seo_description: null, content_markdown: '## Part\n\nText.\n' },
        { language: 'ar', title: 'مرحبا', excerpt: null, seo_title: null, seo_description: null, content_markdown: '## قسم\n\nنص.\n' },
      ],
    });
    expect(build.files).toEqual(['journal/hello/en.md', 'journal/hello/ar.md']);
    expect(build.primaryFile).toBe('journal/hello/en.md');
  });

  it('defaults the status to draft and keeps a secondary file’s own status', () => {
    const build = buildArticleInput(folder('hello', { 'en.md': '---\ntitle: Hello\n---\nText', 'ar.md': '---\ntitle: مرحبا\nstatus: draft\n---\nنص' }), 'en', NOW);
    expect(build.ok && build.input.status).toBe('draft');
    expect(build.ok && build.input.translations[1]!.status).toBe('draft');
  });

  it('takes the primary language from default_language in the primary file, canonicalising file names', () => {
    const build = buildArticleInput(folder('hello', { 'en.md': '---\ntitle: Hello\n---\nText', 'pt-br.md': '---\ntitle: Olá\ndefault_language: pt-BR\n---\nTexto' }), 'en', NOW);
    expect(build.ok && build.input.default_language).toBe('pt-BR');
    expect(build.ok && build.input.translations.map((t) => t.language)).toEqual(['pt-BR', 'en']);
  });

  it('reports a missing primary-language file by its expected path', () => {
    const build = buildArticleInput(folder('hello', { 'ar.md': ar }), 'en', NOW);
    expect(build).toEqual({ ok: false, errors: [{ file: 'journal/hello/en.md', message: expect.stringMatching(/^Missing: .*"en" \(the channel default language\)/) }] });
  });

  it('keeps article settings to the primary file', () => {
    const build = buildArticleInput(folder('hello', { 'en.md': en, 'ar.md': '---\ntitle: مرحبا\nhomepage_mode: hide\nauthor:\n  name: Ana\n---\nنص' }), 'en', NOW);
    expect(build).toEqual({
      ok: false,
      errors: [{ file: 'journal/hello/ar.md', message: 'homepage_mode, author: article settings belong in the primary-language file (en.md) only.' }],
    });
  });

  it('reports bad folder names, bad file names and bad front matter per file', () => {
    expect(buildArticleInput(folder('Hello World', { 'en.md': en }), 'en', NOW)).toEqual({
      ok: false,
      errors: [{ file: 'journal/Hello World/', message: expect.stringContaining('not a valid article slug') }],
    });
    // All digits would be read as an article id by …/pages/{ref}.
    expect(buildArticleInput(folder('38', { 'en.md': en }), 'en', NOW)).toEqual({
      ok: false,
      errors: [{ file: 'journal/38/', message: expect.stringMatching(/not a valid article slug.*only digits.*Rename the folder/) }],
    });
    const build = buildArticleInput(folder('hello', { 'en.md': '---\nstatus: live\n---\n', 'notes.md': 'x', 'ar.md': '---\ntitle: [\n---\n' }), 'en', NOW);
    expect(build.ok).toBe(false);
    if (build.ok) return;
    expect(build.errors.map((e) => e.file)).toEqual(['journal/hello/en.md', 'journal/hello/notes.md', 'journal/hello/ar.md']);
    expect(build.errors[0]!.message).toMatch(/^Invalid front matter: title: Required.*; status: "live" is not allowed/);
    expect(build.errors[1]!.message).toMatch(/language code followed by .md/);
    expect(build.errors[2]!.message).toMatch(/^Front matter is not valid YAML/);
  });

  it('reads a schedule whose time has passed as published, and a future one as scheduled', () => {
    const file = (at: string) => folder('hello', { 'en.md': `---\ntitle: Hello\nstatus: scheduled\nscheduled_at: ${at}\n---\nText` });
    const past = buildArticleInput(file('2026-11-01T09:00:00Z'), 'en', NOW);
    expect(past.ok && [past.input.status, past.input.scheduled_at]).toEqual(['published', undefined]);
    const future = buildArticleInput(file('2026-12-01T09:00:00Z'), 'en', NOW);
    expect(future.ok && [future.input.status, future.input.scheduled_at]).toEqual(['scheduled', '2026-12-01T09:00:00.000Z']);
  });
});

describe('errorsByFile', () => {
  it('sends translation fields to their file and article fields to the primary file', () => {
    const error = validationError({ 'translations.1.status': 'Cannot publish.', scheduled_at: 'Required.', 'translations.0.title': 'Too long.' });
    expect(errorsByFile(error, { files: ['a/en.md', 'a/ar.md'], primaryFile: 'a/en.md' })).toEqual([
      { file: 'a/ar.md', message: 'status: Cannot publish.' },
      { file: 'a/en.md', message: 'scheduled_at: Required.; title: Too long.' },
    ]);
  });
});

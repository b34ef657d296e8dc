import { describe, expect, it } from 'vitest';
import { articleFrontMatterSchema, channelFrontMatterSchema, checkFrontMatter, splitFrontMatter } from './front-matter.ts';

describe('splitFrontMatter', () => {
  it('returns the YAML data and the body without leading blank lines', () => {
    const file = splitFrontMatter('---\ntitle: Hello\n---\n\n\n## Section\n\nText.\n');
    expect(file.data).toEqual({ title: 'Hello' });
    expect(file.body).toBe('## Section\n\nText.\n');
  });

  it('keeps date-times and "no" as strings (YAML 1.2), for the shared rules to read', () => {
    const file = splitFrontMatter('---\nscheduled_at: 2026-12-01T09:00:00Z\nlanguage: no\n---\nBody');
    expect(file.data).toEqual({ scheduled_at: '2026-12-01T09:00:00Z', language: 'no' });
  });

  it('treats a file without front matter, or with an empty block, as no fields', () => {
    expect(splitFrontMatter('Just text.').data).toEqual({});
    expect(splitFrontMatter('---\n# only a comment\n---\nBody').data).toEqual({});
  });

  it('explains bad YAML in one line with its position', () => {
    expect(() => splitFrontMatter('---\ntitle: a: b\n---\nBody')).toThrow(/^Front matter is not valid YAML: .* at line 2, column \d+\.$/);
    expect(() => splitFrontMatter('---\ntitle: A\ntitle: B\n---\n')).toThrow(/unique/);
  });
});

describe('articleFrontMatterSchema', () => {
  it('accepts the shared translation fields and article settings', () => {
    const checked = checkFrontMatter(articleFrontMatterSchema, {
      title: '  Hello ',
      excerpt: 'Short.',
      status: 'scheduled',
      scheduled_at: '2026-12-01T10:00:00+01:00',
      homepage_mode: 'hide',
      author: { name: 'Ana' },
      default_language: 'PT-br',
    });
    expect(checked).toEqual({
      ok: true,
      value: expect.objectContaining({ title: 'Hello', scheduled_at: '2026-12-01T09:00:00.000Z', default_language: 'pt-BR' }),
    });
  });

  it('reports every bad field with the API messages, and points unknown fields at CONTENT.md', () => {
    const checked = checkFrontMatter(articleFrontMatterSchema, { status: 'live', slug: 'x', excerpt: 'x'.repeat(400) });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.problems).toContain('title: Required. Send a string.');
    expect(checked.problems.find((p) => p.startsWith('status:'))).toMatch(/"live" is not allowed. Use one of: draft, published, scheduled/);
    expect(checked.problems.find((p) => p.startsWith('excerpt:'))).toMatch(/at most 320/);
    expect(checked.problems).toContain('slug: Unknown field. Remove it or check its spelling against docs/CONTENT.md.');
  });

  it('names the root when the front matter is not a mapping', () => {
    const checked = checkFrontMatter(articleFrontMatterSchema, ['title']);
    expect(checked).toEqual({ ok: false, problems: ['front matter: Expected an object, got an array.'] });
  });
});

describe('channelFrontMatterSchema', () => {
  const translations = [{ language: 'en', title: 'Journal' }];

  it('is the channel creation body without the slug', () => {
    const checked = checkFrontMatter(channelFrontMatterSchema, { default_language: 'en', homepage_enabled: false, translations });
    expect(checked).toEqual({ ok: true, value: { default_language: 'en', homepage_enabled: false, translations } });
  });

  it('rejects a slug (the folder names the channel) and keeps the API rules', () => {
    expect(checkFrontMatter(channelFrontMatterSchema, { slug: 'x', default_language: 'en', translations })).toEqual({
      ok: false,
      problems: ['slug: The slug of a channel is its folder name. Remove this field, or rename the folder.'],
    });
    const missing = checkFrontMatter(channelFrontMatterSchema, { default_language: 'ar', translations });
    expect(missing).toEqual({ ok: false, problems: ['translations: Include a translation in the default language "ar".'] });
  });
});

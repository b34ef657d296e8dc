import { describe, expect, it } from 'vitest';
import type { ArticleRow, TranslationRow } from '../../store/article.table.ts';
import type { TranslationStatus } from './article-status.ts';
import { reportedTranslationStatus, revisionsBeingPublished, withdrawalPending, withReportedStatuses } from './reported-status.ts';

describe('reportedTranslationStatus', () => {
  it.each<[TranslationStatus, boolean, boolean, TranslationStatus]>([
    ['published', true, false, 'published'],
    ['published', true, true, 'published'],
    // Being published: moderation passed, the build has not placed the files yet.
    ['published', false, true, 'moderation_review'],
    // Nothing pending: the build decided not to show it (a hidden channel); the store's status stands.
    ['published', false, false, 'published'],
    // Withdrawn in the store, files not yet removed: readers still get it.
    ['draft', true, true, 'published'],
    ['scheduled', true, true, 'published'],
    ['moderation_review', true, true, 'published'],
    ['moderation_blocked', true, true, 'published'],
    ['draft', false, true, 'draft'],
    ['draft', false, false, 'draft'],
    ['scheduled', false, true, 'scheduled'],
    ['moderation_review', false, true, 'moderation_review'],
    ['moderation_blocked', false, true, 'moderation_blocked'],
  ])('%s, shown %s, building %s → %s', (stored, shown, building, expected) => {
    expect(reportedTranslationStatus(stored, shown, building)).toBe(expected);
  });
});

describe('withReportedStatuses', () => {
  const article = { id: 1, default_language: 'en', status: 'published' } as ArticleRow;
  const row = (language: string, status: TranslationStatus) => ({ language, status }) as TranslationRow;

  it.each<[string, ArticleRow['status'], string[], boolean, string]>([
    ['published, primary shown', 'published', ['en'], false, 'published'],
    ['published, primary not shown yet', 'published', [], true, 'moderation_review'],
    ['published, primary not shown, nothing pending', 'published', [], false, 'published'],
    ['archived, primary still shown', 'archived', ['en'], true, 'published'],
    ['draft, nothing shown', 'draft', [], true, 'draft'],
  ])('article %s', (_name, status, shown, building, expected) => {
    const out = withReportedStatuses({ ...article, status }, [row('en', status === 'archived' ? 'draft' : status === 'published' ? 'published' : 'draft')], new Set(shown), building);
    expect(out.article.status).toBe(expected);
  });

  it('reports each translation from what the output shows', () => {
    const out = withReportedStatuses(article, [row('en', 'published'), row('fr', 'published'), row('de', 'draft')], new Set(['en', 'de']), true);
    expect(out.translations.map((t) => [t.language, t.status])).toEqual([
      ['en', 'published'],
      ['fr', 'moderation_review'],
      ['de', 'published'],
    ]);
  });

  it('says when a withdrawal still waits for its build', () => {
    expect(withdrawalPending([row('en', 'draft')], new Set(['en']))).toBe(true);
    expect(withdrawalPending([row('en', 'published')], new Set(['en']))).toBe(false);
    expect(withdrawalPending([row('en', 'draft')], new Set())).toBe(false);
  });
});

describe('revisionsBeingPublished', () => {
  const tr = (language: string, status: TranslationStatus, published: number | null) =>
    ({ id: language === 'en' ? 1 : 2, language, status, published_revision_id: published }) as TranslationRow;
  const latest = new Map([
    [1, { id: 10, content_hash: 'new' }],
    [2, { id: 20, content_hash: 'same' }],
  ]);

  it.each<[string, TranslationRow[], Record<string, string>, boolean, string[]]>([
    ['approved revision, files show the old text, build pending', [tr('en', 'published', 10)], { en: 'old' }, true, ['en']],
    ['files show the new text', [tr('en', 'published', 10)], { en: 'new' }, true, []],
    ['nothing pending: the store stands', [tr('en', 'published', 10)], { en: 'old' }, false, []],
    ['newest revision still waits (not the published one)', [tr('en', 'published', 9)], { en: 'old' }, true, []],
    ['not shown at all: a first publication, reported by the status instead', [tr('en', 'published', 10)], {}, true, []],
    ['a draft', [tr('en', 'draft', null)], { en: 'old' }, true, []],
    ['one of two', [tr('en', 'published', 10), tr('fr', 'published', 20)], { en: 'old', fr: 'same' }, true, ['en']],
  ])('%s', (_name, rows, built, building, expected) => {
    expect([...revisionsBeingPublished(rows, new Map(Object.entries(built)), latest, building)]).toEqual(expected);
  });
});

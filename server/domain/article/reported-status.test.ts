import { describe, expect, it } from 'vitest';
import type { ArticleRow, TranslationRow } from '../../store/article.table.ts';
import type { TranslationStatus } from './article-status.ts';
import { reportedTranslationStatus, withdrawalPending, withReportedStatuses } from './reported-status.ts';

describe('reportedTranslationStatus', () => {
  it.each<[TranslationStatus, boolean, TranslationStatus]>([
    ['published', true, 'published'],
    // Being published: moderation passed, the build has not placed the files yet.
    ['published', false, 'moderation_review'],
    // Withdrawn in the store, files not yet removed: readers still get it.
    ['draft', true, 'published'],
    ['scheduled', true, 'published'],
    ['moderation_review', true, 'published'],
    ['moderation_blocked', true, 'published'],
    ['draft', false, 'draft'],
    ['scheduled', false, 'scheduled'],
    ['moderation_review', false, 'moderation_review'],
    ['moderation_blocked', false, 'moderation_blocked'],
  ])('%s, shown %s → %s', (stored, shown, expected) => {
    expect(reportedTranslationStatus(stored, shown)).toBe(expected);
  });
});

describe('withReportedStatuses', () => {
  const article = { id: 1, default_language: 'en', status: 'published' } as ArticleRow;
  const row = (language: string, status: TranslationStatus) => ({ language, status }) as TranslationRow;

  it.each<[string, ArticleRow['status'], string[], string]>([
    ['published, primary shown', 'published', ['en'], 'published'],
    ['published, primary not shown yet', 'published', [], 'moderation_review'],
    ['archived, primary still shown', 'archived', ['en'], 'published'],
    ['draft, nothing shown', 'draft', [], 'draft'],
  ])('article %s', (_name, status, shown, expected) => {
    const out = withReportedStatuses({ ...article, status }, [row('en', status === 'archived' ? 'draft' : status === 'published' ? 'published' : 'draft')], new Set(shown));
    expect(out.article.status).toBe(expected);
  });

  it('reports each translation from what the output shows', () => {
    const out = withReportedStatuses(article, [row('en', 'published'), row('fr', 'published'), row('de', 'draft')], new Set(['en', 'de']));
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

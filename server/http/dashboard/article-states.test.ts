import { describe, expect, it } from 'vitest';
import { summarizeTranslations, type SummaryInput } from '../../domain/article/translation-summary.ts';
import { describeStates, pauseReason } from './article-states.ts';

const item = (status: 'draft' | 'moderation_review' | 'scheduled' | 'published' | 'archived', translations: SummaryInput[], extra: { scheduled_at?: string; paused?: boolean } = {}) => ({
  status,
  scheduled_at: extra.scheduled_at ?? null,
  scheduled_paused: extra.paused ?? false,
  scheduled_pause_reason: extra.paused ? 'account_plan' : null,
  languages: translations.map((t) => t.language),
  translation_status_summary: summarizeTranslations(translations, 'en'),
});

describe('an article’s states in words', () => {
  it('says a schedule, and why it is paused', () => {
    const at = '2026-12-01T09:30:00.000Z';
    expect(describeStates(item('scheduled', [{ language: 'en', status: 'scheduled', moderation: 'passed' }], { scheduled_at: at }))).toEqual(['scheduled for 2026-12-01 09:30 UTC']);
    expect(describeStates(item('scheduled', [{ language: 'en', status: 'scheduled', moderation: 'passed' }], { scheduled_at: at, paused: true }))).toEqual([
      'scheduled for 2026-12-01 09:30 UTC (paused: the plan lost scheduling; give it a new time or publish it by hand)',
    ]);
    expect(pauseReason(null)).toBe('no reason recorded');
  });

  it('tells first submissions from revisions of published text, and names the languages', () => {
    const states = describeStates(
      item('published', [
        { language: 'en', status: 'published', moderation: 'pending' },
        { language: 'fr', status: 'published', moderation: 'manual_review' },
        { language: 'de', status: 'published', moderation: 'blocked' },
        { language: 'ar', status: 'moderation_review', moderation: 'manual_review' },
        { language: 'es', status: 'moderation_review', moderation: 'pending' },
        { language: 'it', status: 'moderation_blocked', moderation: 'blocked' },
        { language: 'nl', status: 'draft', moderation: 'none' },
      ]),
    );
    expect(states).toEqual([
      'published',
      'waiting for the automatic moderation (es)',
      'waiting for a person (manual review) (ar)',
      'blocked by moderation (it)',
      'published, revision waiting for moderation (en)',
      'published, revision waiting for a person (manual review) (fr)',
      'published, revision blocked: readers keep the published version (de)',
      'still a draft (nl)',
    ]);
  });

  it('says a translation held for the primary language', () => {
    expect(
      describeStates(
        item('moderation_review', [
          { language: 'en', status: 'moderation_review', moderation: 'pending' },
          { language: 'fr', status: 'moderation_review', moderation: 'waiting_for_primary' },
        ]),
      ),
    ).toEqual(['in moderation', 'waiting for the automatic moderation (en)', 'approved, waiting for the primary language (fr)']);
  });
});

import { describe, expect, it } from 'vitest';
import type { ModerationState, TranslationStatus } from './article-status.ts';
import { articleModeration, translationModeration, unpublishedRevisionState, type ModerationInput } from './translation-moderation.ts';
import { summarizeTranslations } from './translation-summary.ts';

type State = NonNullable<ModerationInput['latest']>['moderation_state'];

/** A translation whose public revision is 1 (when `public`) and whose latest revision is `latestId` in `state`. */
function input(status: TranslationStatus, state: State | null, opts: { public?: boolean; latestId?: number; reason?: string } = {}): ModerationInput {
  return {
    status,
    publishedRevisionId: opts.public ? 1 : null,
    latest: state === null ? undefined : { id: opts.latestId ?? 2, moderation_state: state, moderation_reason: opts.reason ?? null },
  };
}

describe('translationModeration', () => {
  it.each<[string, ModerationInput, ModerationState, ReturnType<typeof unpublishedRevisionState>]>([
    ['new draft', input('draft', null), 'none', null],
    ['draft after a blocked submission (unpublished)', input('draft', 'blocked'), 'none', null],
    ['draft after a withdrawn submission', input('draft', 'superseded'), 'none', null],
    ['first submission queued', input('moderation_review', 'pending'), 'pending', null],
    ['first submission waits for a person', input('moderation_review', 'manual_review'), 'manual_review', null],
    ['approved secondary held for the primary', input('moderation_review', 'passed', { reason: 'waiting_for_primary' }), 'waiting_for_primary', null],
    ['passed, being published (files not placed yet)', input('moderation_review', 'passed'), 'passed', null],
    ['in review without a revision (defensive)', input('moderation_review', null), 'pending', null],
    ['first submission refused', input('moderation_blocked', 'blocked'), 'blocked', null],
    ['scheduled', input('scheduled', 'passed'), 'passed', null],
    ['published, nothing newer', input('published', 'passed', { public: true, latestId: 1 }), 'passed', null],
    ['published from a trusted source', input('published', 'passed', { public: true, latestId: 1, reason: 'trusted_source' }), 'passed', null],
    ['published, revision queued', input('published', 'pending', { public: true }), 'pending', 'pending'],
    ['published, revision waits for a person', input('published', 'manual_review', { public: true }), 'manual_review', 'manual_review'],
    ['published, revision refused', input('published', 'blocked', { public: true }), 'blocked', 'blocked'],
    ['published, newer revision superseded', input('published', 'superseded', { public: true }), 'passed', null],
    ['published, legacy revision without a state', input('published', 'none', { public: true, latestId: 1 }), 'passed', null],
  ])('%s → %s', (_name, given, moderation, revision) => {
    expect(translationModeration(given)).toBe(moderation);
    expect(unpublishedRevisionState(given)).toBe(revision);
  });
});

describe('articleModeration', () => {
  it.each<[ModerationState[], ModerationState]>([
    [[], 'none'],
    [['none'], 'none'],
    [['none', 'passed'], 'passed'],
    [['passed', 'waiting_for_primary'], 'waiting_for_primary'],
    [['waiting_for_primary', 'manual_review', 'passed'], 'manual_review'],
    [['manual_review', 'blocked'], 'blocked'],
    [['blocked', 'pending', 'manual_review'], 'pending'],
    [['none', 'pending'], 'pending'],
  ])('%j → %s', (states, expected) => {
    expect(articleModeration(states)).toBe(expected);
  });
});

describe('summarizeTranslations', () => {
  const t = (language: string, status: TranslationStatus, moderation: ModerationState) => ({ language, status, moderation });

  it.each([
    {
      name: 'a refused revision of published content stays published',
      rows: [t('en', 'published', 'passed'), t('fr', 'published', 'blocked')],
      expected: { published: ['en', 'fr'], moderation_blocked: [], revisions_blocked: ['fr'], revisions_in_review: [], manual_review: [], all_translations_settled: true, all_translations_published: true },
    },
    {
      name: 'revisions waiting: queued and for a person',
      rows: [t('en', 'published', 'pending'), t('fr', 'published', 'manual_review')],
      expected: { revisions_in_review: ['en', 'fr'], manual_review: ['fr'], revisions_blocked: [], all_translations_settled: false },
    },
    {
      name: 'a first submission for a person, a secondary held for the primary',
      rows: [t('en', 'moderation_review', 'manual_review'), t('fr', 'moderation_review', 'waiting_for_primary')],
      expected: { moderation_review: ['en', 'fr'], manual_review: ['en'], waiting_for_primary: ['fr'], revisions_in_review: [], all_translations_settled: true },
    },
    {
      name: 'a blocked primary, a draft secondary',
      rows: [t('en', 'moderation_blocked', 'blocked'), t('de', 'draft', 'none')],
      expected: { moderation_blocked: ['en'], draft_translation_languages: ['de'], revisions_blocked: [], all_translations_settled: true, all_translations_public_or_pending: false },
    },
    {
      name: 'being published: passed, files not yet placed, is not final',
      rows: [t('en', 'moderation_review', 'passed')],
      expected: { moderation_review: ['en'], waiting_for_primary: [], all_translations_settled: false },
    },
    {
      name: 'a first submission queued',
      rows: [t('en', 'moderation_review', 'pending')],
      expected: { moderation_review: ['en'], manual_review: [], all_translations_settled: false, all_translations_public_or_pending: true },
    },
  ])('$name', ({ rows, expected }) => {
    expect(summarizeTranslations(rows, 'en')).toMatchObject(expected);
  });
});

import { describe, expect, it } from 'vitest';
import {
  articleStatusFor,
  isTranslationPublic,
  mayChangePrimary,
  mayPublishSecondary,
  mayPublishTranslationAlone,
  mustWithdrawWithPrimary,
  NEW_DRAFT,
  nextTranslationState,
  type LifecycleEffect,
  type LifecycleEvent,
  type TranslationState,
} from './article-lifecycle.ts';
import { STATE_TABLE, type Outcome, type StartState, type Write } from './state-table.ts';

const NOW = '2026-11-22T12:00:00.000Z';
const LATER = '2026-11-23T09:00:00.000Z';
const EARLIER = '2026-11-21T09:00:00.000Z';

const draft = NEW_DRAFT;
const review: TranslationState = { ...NEW_DRAFT, status: 'moderation_review' };
const reviewForSchedule: TranslationState = { ...review, scheduledAt: LATER };
const scheduled: TranslationState = { ...NEW_DRAFT, status: 'scheduled', scheduledAt: LATER };
const scheduledDue: TranslationState = { ...scheduled, scheduledAt: EARLIER };
const pausedDue: TranslationState = { ...scheduledDue, scheduledPaused: true };
const published: TranslationState = { ...NEW_DRAFT, status: 'published', hasPublicVersion: true };
const publishedWithRevision: TranslationState = { ...published, pendingRevision: true };
const blocked: TranslationState = { ...NEW_DRAFT, status: 'moderation_blocked' };

interface Row {
  /** The row of the spec's state table this case shows. */
  spec: string;
  from: TranslationState;
  event: LifecycleEvent;
  to: Partial<TranslationState>;
  effects: LifecycleEffect[];
  moderation?: string | null;
}

// Each row of publishing-api.md "States and transitions", in order.
const table: Row[] = [
  { spec: 'draft | create with status draft → draft', from: draft, event: { type: 'save_draft' }, to: { status: 'draft' }, effects: [] },
  { spec: 'any | publish without scheduled_at → moderation_review (from draft)', from: draft, event: { type: 'publish' }, to: { status: 'moderation_review', scheduledAt: null }, effects: ['moderate'], moderation: 'pending' },
  { spec: 'any | publish without scheduled_at → moderation_review (from blocked)', from: blocked, event: { type: 'publish' }, to: { status: 'moderation_review' }, effects: ['moderate'], moderation: 'pending' },
  { spec: 'any | publish without scheduled_at → moderation_review (from scheduled: publish now)', from: scheduled, event: { type: 'publish' }, to: { status: 'moderation_review', scheduledAt: null }, effects: ['moderate'], moderation: 'pending' },
  { spec: 'moderation_review | passes → published', from: review, event: { type: 'moderation_pass' }, to: { status: 'published', hasPublicVersion: true }, effects: ['make_public'], moderation: 'passed' },
  { spec: 'moderation_review | blocked → moderation_blocked', from: review, event: { type: 'moderation_block' }, to: { status: 'moderation_blocked', hasPublicVersion: false }, effects: ['record_moderation'], moderation: 'blocked' },
  { spec: 'moderation_review | manual review → stays moderation_review', from: review, event: { type: 'moderation_manual' }, to: { status: 'moderation_review' }, effects: ['record_moderation'], moderation: 'manual_review' },
  { spec: 'any | schedule → moderation_review, moderated immediately', from: draft, event: { type: 'schedule', at: LATER }, to: { status: 'moderation_review', scheduledAt: LATER }, effects: ['moderate'], moderation: 'pending' },
  { spec: 'moderation_review | passes, scheduled → scheduled', from: reviewForSchedule, event: { type: 'moderation_pass' }, to: { status: 'scheduled', scheduledAt: LATER, hasPublicVersion: false }, effects: ['arm_schedule'], moderation: 'passed' },
  { spec: 'moderation_review | passes after the scheduled time went by → published', from: { ...review, scheduledAt: EARLIER }, event: { type: 'moderation_pass' }, to: { status: 'published', hasPublicVersion: true }, effects: ['make_public'], moderation: 'passed' },
  { spec: 'scheduled | scheduled_at arrives → published', from: scheduledDue, event: { type: 'schedule_due', schedulingAllowed: true }, to: { status: 'published', hasPublicVersion: true, scheduledAt: null }, effects: ['make_public'] },
  { spec: 'scheduled | fires early → nothing (never published early)', from: scheduled, event: { type: 'schedule_due', schedulingAllowed: true }, to: { status: 'scheduled' }, effects: [] },
  { spec: 'scheduled | plan loses scheduling → stays scheduled, paused', from: scheduled, event: { type: 'plan_lost_scheduling' }, to: { status: 'scheduled', scheduledPaused: true }, effects: [] },
  { spec: 'scheduled | time arrives without scheduling in the plan → paused, not published', from: scheduledDue, event: { type: 'schedule_due', schedulingAllowed: false }, to: { status: 'scheduled', scheduledPaused: true, hasPublicVersion: false }, effects: [] },
  { spec: 'scheduled, paused | time passes → not published retroactively', from: pausedDue, event: { type: 'schedule_due', schedulingAllowed: true }, to: { status: 'scheduled', scheduledPaused: true, hasPublicVersion: false }, effects: [] },
  { spec: 'scheduled, paused | new time after upgrade → moderated, then scheduled again', from: pausedDue, event: { type: 'schedule', at: LATER }, to: { status: 'moderation_review', scheduledAt: LATER, scheduledPaused: false }, effects: ['moderate'], moderation: 'pending' },
  { spec: 'scheduled, paused | manual publish after upgrade → moderation_review', from: pausedDue, event: { type: 'publish' }, to: { status: 'moderation_review', scheduledAt: null, scheduledPaused: false }, effects: ['moderate'], moderation: 'pending' },
  { spec: 'published | new revision → moderation for the revision, previous stays public', from: published, event: { type: 'revise' }, to: { status: 'published', hasPublicVersion: true, pendingRevision: true }, effects: ['moderate'], moderation: 'pending' },
  { spec: 'published with revision | revision passes → new version public', from: publishedWithRevision, event: { type: 'moderation_pass' }, to: { status: 'published', pendingRevision: false }, effects: ['make_public'], moderation: 'passed' },
  { spec: 'published with revision | revision blocked → previous version stays public', from: publishedWithRevision, event: { type: 'moderation_block' }, to: { status: 'published', hasPublicVersion: true, pendingRevision: false }, effects: ['discard_pending_revision'], moderation: 'blocked' },
  { spec: 'published with revision | manual review → waits, previous stays public', from: publishedWithRevision, event: { type: 'moderation_manual' }, to: { status: 'published', pendingRevision: true }, effects: ['record_moderation'], moderation: 'manual_review' },
  { spec: 'archived | archive removes from public view', from: published, event: { type: 'archive' }, to: { status: 'draft', hasPublicVersion: false }, effects: ['withdraw'], moderation: null },
  { spec: 'any (published) | status change to scheduled → moderation_review, withdrawn until its time', from: published, event: { type: 'schedule', at: LATER }, to: { status: 'moderation_review', scheduledAt: LATER, hasPublicVersion: false }, effects: ['withdraw', 'moderate'], moderation: 'pending' },
  { spec: 'any (published with revision) | schedule → the latest content is moderated, nothing stays public', from: publishedWithRevision, event: { type: 'schedule', at: LATER }, to: { status: 'moderation_review', hasPublicVersion: false, pendingRevision: false }, effects: ['withdraw', 'moderate'], moderation: 'pending' },
  { spec: 'any (scheduled) | reschedule → moderation_review at the new time', from: scheduled, event: { type: 'schedule', at: EARLIER }, to: { status: 'moderation_review', scheduledAt: EARLIER }, effects: ['moderate'], moderation: 'pending' },
  { spec: 'moderation_review | save as draft → the waiting submission is dropped', from: review, event: { type: 'save_draft' }, to: { status: 'draft' }, effects: ['withdraw'], moderation: null },
  { spec: 'published | unpublish (save as draft) withdraws', from: published, event: { type: 'save_draft' }, to: { status: 'draft', hasPublicVersion: false }, effects: ['withdraw'], moderation: null },
];

describe('translation lifecycle: the spec state table', () => {
  it.each(table)('$spec', ({ from, event, to, effects, moderation }) => {
    const result = nextTranslationState(from, event, NOW);
    expect(result.state).toMatchObject(to);
    expect(result.effects).toEqual(effects);
    if (moderation !== undefined) expect(result.moderation).toBe(moderation);
  });
});

describe('events that do not apply leave the state alone (idempotent handlers)', () => {
  const noOps: Array<[string, TranslationState, LifecycleEvent]> = [
    ['moderation result for a draft', draft, { type: 'moderation_pass' }],
    ['a second moderation pass after publication', published, { type: 'moderation_pass' }],
    ['block after publication with nothing pending', published, { type: 'moderation_block' }],
    ['schedule fires twice', published, { type: 'schedule_due', schedulingAllowed: true }],
    ['publish of already published content', published, { type: 'publish' }],
    ['revise of a draft', draft, { type: 'revise' }],
    ['revise of blocked content waits for a new publish', blocked, { type: 'revise' }],
    ['plan loss when nothing is scheduled', review, { type: 'plan_lost_scheduling' }],
  ];
  it.each(noOps)('%s', (_name, from, event) => {
    const result = nextTranslationState(from, event, NOW);
    expect(result.state).toEqual(from);
    expect(result.effects).toEqual([]);
  });
});

describe('article status follows the primary translation', () => {
  it.each([
    ['draft', false, 'draft'],
    ['moderation_review', false, 'moderation_review'],
    ['scheduled', false, 'scheduled'],
    ['published', false, 'published'],
    ['moderation_blocked', false, 'draft'],
    ['published', true, 'archived'],
  ] as const)('primary %s, archived %s → %s', (primary, archived, expected) => {
    expect(articleStatusFor(primary, archived)).toBe(expected);
  });
});

describe('publishing rule 1: no secondary before the primary', () => {
  it.each([
    ['draft', false],
    ['moderation_blocked', false],
    ['moderation_review', true],
    ['scheduled', true],
    ['published', true],
  ] as const)('primary %s → secondary may publish: %s', (primary, allowed) => {
    expect(mayPublishSecondary(primary)).toBe(allowed);
  });

  it('a secondary is public only while the primary is, the article is not archived and the channel is active', () => {
    const base = { translation: { hasPublicVersion: true }, primary: { hasPublicVersion: true }, articleStatus: 'published' as const, channelActive: true };
    expect(isTranslationPublic(base)).toBe(true);
    expect(isTranslationPublic({ ...base, primary: { hasPublicVersion: false } })).toBe(false);
    expect(isTranslationPublic({ ...base, articleStatus: 'archived' })).toBe(false);
    expect(isTranslationPublic({ ...base, channelActive: false })).toBe(false);
    expect(isTranslationPublic({ ...base, translation: { hasPublicVersion: false } })).toBe(false);
  });
});

// Issue 18, item 9: the publishing API never reports `published` for something that is not public.
describe('reported status is public status: into and out of archived', () => {
  it.each([
    ['draft', true],
    ['moderation_review', true],
    ['scheduled', true],
    ['published', true],
    ['archived', false],
  ] as const)('article %s → one translation may be published on its own: %s', (articleStatus, allowed) => {
    expect(mayPublishTranslationAlone(articleStatus)).toBe(allowed);
  });

  it('archive leaves every translation a draft with no public version, so none reads published', () => {
    for (const from of [published, publishedWithRevision, scheduled, review, blocked]) {
      const { state } = nextTranslationState(from, { type: 'archive' }, NOW);
      expect(state).toMatchObject({ status: 'draft', hasPublicVersion: false, pendingRevision: false });
      expect(articleStatusFor(state.status, true)).toBe('archived');
    }
  });
});

describe('reported status is public status: changing the primary language', () => {
  it.each([
    ['published', ['published', 'draft'], true],
    ['published', ['scheduled'], true],
    ['draft', ['draft', 'moderation_blocked'], true],
    ['draft', ['moderation_review'], true], // a secondary that passes waits for the primary (moderation_review)
    ['draft', ['published'], false],
    ['draft', ['scheduled'], false],
    ['moderation_review', ['published'], false],
    ['scheduled', ['published'], false],
    ['moderation_blocked', ['published'], false],
    ['draft', [], true],
  ] as const)('new primary %s, others %j → allowed: %s', (newPrimary, others, allowed) => {
    expect(mayChangePrimary(newPrimary, others)).toBe(allowed);
  });
});

describe('reported status is public status: unpublishing the primary language', () => {
  it.each([
    ['published', true],
    ['scheduled', true],
    ['moderation_review', false], // keeps waiting; released when the primary is out again
    ['moderation_blocked', false],
    ['draft', false],
  ] as const)('secondary %s is withdrawn with the primary: %s', (status, withdrawn) => {
    expect(mustWithdrawWithPrimary(status)).toBe(withdrawn);
  });
});

// The rows of state-table.ts (docs/LIFECYCLE.md, "The state table, row by row"), walked through the pure rules.
describe('the state table as data: the pure lifecycle', () => {
  const AFTER = '2026-11-24T12:00:00.000Z';
  const start: Record<StartState, TranslationState> = {
    new: NEW_DRAFT,
    draft: NEW_DRAFT,
    moderation_review: review,
    scheduled: scheduled,
    scheduled_paused: { ...scheduled, scheduledPaused: true },
    published,
    published_pending: publishedWithRevision,
    moderation_blocked: blocked,
    archived: NEW_DRAFT,
  };
  const decision = (outcome: Outcome): LifecycleEvent[] =>
    outcome === 'pass' ? [{ type: 'moderation_pass' }] : outcome === 'block' ? [{ type: 'moderation_block' }] : outcome === 'manual' ? [{ type: 'moderation_manual' }] : [];
  /** The events the write means for a translation it applies to, moderation included. */
  const eventsOf = (write: Write, outcome: Outcome): LifecycleEvent[] => {
    if (write === 'create_draft' || write === 'draft' || write === 'draft_primary_only') return [{ type: 'save_draft' }];
    if (write === 'archive') return [{ type: 'archive' }];
    if (write === 'time_arrives') return [{ type: 'schedule_due', schedulingAllowed: true }];
    if (write === 'revise') return [{ type: 'revise' }, ...decision(outcome)];
    if (write === 'create_publish' || write === 'publish') return [{ type: 'publish' }, ...decision(outcome)];
    return [{ type: 'schedule', at: LATER }, ...decision(outcome)];
  };
  const run = (from: TranslationState, events: LifecycleEvent[], now: string) => events.reduce((s, e) => nextTranslationState(s, e, now).state, from);

  it.each(STATE_TABLE.filter((r) => !r.refused).map((r) => [`${r.from} | ${r.write} | ${r.outcome} | ${r.role}`, r] as const))('%s', (_name, r) => {
    const now = r.write === 'time_arrives' ? AFTER : NOW;
    let primary: TranslationState;
    let subject: TranslationState;
    if (r.role === 'primary') {
      primary = subject = run(start[r.from], eventsOf(r.write, r.outcome), now);
    } else {
      // The primary is published with clean content; it takes the write unless the write is the secondary's own.
      primary = r.write === 'revise' ? published : run(published, eventsOf(r.write, r.outcome === '-' ? '-' : 'pass'), now);
      const own = r.write.endsWith('_primary_only') ? [] : eventsOf(r.write, r.outcome);
      subject = run(start[r.from], own, now);
      if (r.write.endsWith('_primary_only') && mustWithdrawWithPrimary(subject.status)) subject = run(subject, [{ type: 'save_draft' }], now);
    }
    const archived = r.write === 'archive' || (r.from === 'archived' && r.write === 'revise');
    const articleStatus = articleStatusFor(primary.status, archived);
    expect({ status: subject.status, article: articleStatus, public: isTranslationPublic({ translation: subject, primary, articleStatus, channelActive: true }) }).toEqual({
      status: r.status,
      article: r.article,
      public: r.public,
    });
    expect(r.publishedBefore).toBe(start[r.from].hasPublicVersion);
  });
});

/**
 * The publishing spec's state table as data: one row per starting state ×
 * write × moderation outcome × primary/secondary translation, with what the
 * publishing API must then report and whether readers see the translation.
 * The same rows drive the pure lifecycle test (`article-lifecycle.test.ts`),
 * the end-to-end test over real HTTP (`test/e2e/state-table.test.ts`) and the
 * table in `docs/LIFECYCLE.md` (`npm run docs:lifecycle`; `state-table.test.ts`
 * fails when the document differs).
 * @module
 */
import type { ArticleStatus, ModerationState, TranslationStatus } from './article-status.ts';
import { invariant } from '../../internal-error.ts';

/** Where the translation stands before the write. */
export type StartState =
  | 'new'
  | 'draft'
  | 'moderation_review'
  | 'scheduled'
  | 'scheduled_paused'
  | 'published'
  | 'published_pending'
  | 'moderation_blocked'
  | 'archived';

/** What the publisher does (or what happens): one request, or the clock. */
export type Write =
  | 'create_draft'
  | 'create_publish'
  | 'create_schedule'
  | 'publish'
  | 'publish_at'
  | 'schedule'
  | 'schedule_no_time'
  | 'request_review'
  | 'upsert_schedule'
  | 'schedule_primary_only'
  | 'revise'
  | 'draft'
  | 'draft_primary_only'
  | 'archive'
  | 'time_arrives';

/** What the moderation policy says of the content the write submits; `-` when nothing is submitted. */
export type Outcome = 'pass' | 'block' | 'manual' | '-';

/** One row of the table. */
export interface StateTableRow {
  readonly from: StartState;
  readonly write: Write;
  readonly outcome: Outcome;
  /** The translation the row is about: the primary language, or a secondary one (the primary is published and clean). */
  readonly role: 'primary' | 'secondary';
  /** Whether a version of the translation was public before the write. */
  readonly publishedBefore: boolean;
  /** The translation's status once moderation has run. */
  readonly status: TranslationStatus;
  /** The article's status. */
  readonly article: ArticleStatus;
  /** Whether readers get the translation (public JSON, Markdown, HTML). */
  readonly public: boolean;
  /** A refused write: the field the 422 names; nothing changes. */
  readonly refused?: string;
  /** The translation's `moderation` once moderation has run (docs/LIFECYCLE.md, "Moderation"). */
  readonly moderation: ModerationState;
}

/** How each write reads in the documentation. */
export const WRITE_LABELS: Readonly<Record<Write, string>> = {
  create_draft: 'create, `draft`',
  create_publish: 'create, `published`',
  create_schedule: 'create, `published` + future `scheduled_at`',
  publish: 'status `published`',
  publish_at: 'status `published` + future `scheduled_at`',
  schedule: 'status `scheduled` + `scheduled_at`',
  schedule_no_time: 'status `scheduled`, no `scheduled_at`',
  request_review: 'status `moderation_review`',
  upsert_schedule: 'upsert, `scheduled` + `scheduled_at`',
  schedule_primary_only: 'status `scheduled`, `publish_translations: false`',
  revise: 'new content (PUT translation)',
  draft: 'status `draft`',
  draft_primary_only: 'status `draft`, `publish_translations: false`',
  archive: 'status `archived`',
  time_arrives: '`scheduled_at` arrives',
};

/** Writes that schedule: published content they reach leaves public view until its time. */
export const SCHEDULING_WRITES: ReadonlySet<Write> = new Set(['create_schedule', 'publish_at', 'schedule', 'upsert_schedule', 'schedule_primary_only']);

type Cells = [StartState, Write, Outcome, 'P' | 'S', boolean, TranslationStatus, ArticleStatus, boolean, ModerationState, string?];
const row = ([from, write, outcome, role, publishedBefore, status, article, pub, moderation, refused]: Cells): StateTableRow => ({
  from,
  write,
  outcome,
  role: role === 'P' ? 'primary' : 'secondary',
  publishedBefore,
  status,
  article,
  public: pub,
  moderation,
  ...(refused !== undefined && { refused }),
});

// prettier-ignore
/** Every row, in the order of `docs/LIFECYCLE.md`. */
export const STATE_TABLE: readonly StateTableRow[] = Object.freeze(([
  // from                  write                    outcome role before  → status               article              public  moderation      refused
  ['new',                  'create_draft',          '-',     'P', false, 'draft',              'draft',             false,  'none'],
  ['new',                  'create_publish',        'pass',  'P', false, 'published',          'published',         true,   'passed'],
  ['new',                  'create_publish',        'block', 'P', false, 'moderation_blocked', 'draft',             false,  'blocked'],
  ['new',                  'create_publish',        'manual','P', false, 'moderation_review',  'moderation_review', false,  'manual_review'],
  ['new',                  'create_schedule',       'pass',  'P', false, 'scheduled',          'scheduled',         false,  'passed'],
  ['new',                  'create_schedule',       'block', 'P', false, 'moderation_blocked', 'draft',             false,  'blocked'],
  ['draft',                'publish',               'pass',  'P', false, 'published',          'published',         true,   'passed'],
  ['draft',                'publish',               'block', 'P', false, 'moderation_blocked', 'draft',             false,  'blocked'],
  ['draft',                'publish',               'manual','P', false, 'moderation_review',  'moderation_review', false,  'manual_review'],
  ['draft',                'schedule',              'pass',  'P', false, 'scheduled',          'scheduled',         false,  'passed'],
  ['draft',                'publish_at',            'pass',  'P', false, 'scheduled',          'scheduled',         false,  'passed'],
  ['draft',                'schedule_no_time',      '-',     'P', false, 'draft',              'draft',             false,  'none',          'scheduled_at'],
  ['draft',                'request_review',        '-',     'P', false, 'draft',              'draft',             false,  'none',          'status'],
  ['draft',                'archive',               '-',     'P', false, 'draft',              'archived',          false,  'none'],
  ['moderation_review',    'publish',               'pass',  'P', false, 'published',          'published',         true,   'passed'],
  ['moderation_review',    'schedule',              'pass',  'P', false, 'scheduled',          'scheduled',         false,  'passed'],
  ['moderation_review',    'draft',                 '-',     'P', false, 'draft',              'draft',             false,  'none'],
  ['scheduled',            'time_arrives',          '-',     'P', false, 'published',          'published',         true,   'passed'],
  ['scheduled',            'schedule',              'pass',  'P', false, 'scheduled',          'scheduled',         false,  'passed'],
  ['scheduled',            'publish',               'pass',  'P', false, 'published',          'published',         true,   'passed'],
  ['scheduled',            'draft',                 '-',     'P', false, 'draft',              'draft',             false,  'none'],
  ['scheduled',            'archive',               '-',     'P', false, 'draft',              'archived',          false,  'none'],
  ['scheduled_paused',     'time_arrives',          '-',     'P', false, 'scheduled',          'scheduled',         false,  'passed'],
  ['scheduled_paused',     'publish',               'pass',  'P', false, 'published',          'published',         true,   'passed'],
  ['scheduled_paused',     'schedule',              'pass',  'P', false, 'scheduled',          'scheduled',         false,  'passed'],
  ['published',            'publish',               '-',     'P', true,  'published',          'published',         true,   'passed'],
  ['published',            'schedule',              'pass',  'P', true,  'scheduled',          'scheduled',         false,  'passed'],
  ['published',            'publish_at',            'pass',  'P', true,  'scheduled',          'scheduled',         false,  'passed'],
  ['published',            'upsert_schedule',       'pass',  'P', true,  'scheduled',          'scheduled',         false,  'passed'],
  ['published',            'revise',                'pass',  'P', true,  'published',          'published',         true,   'passed'],
  ['published',            'revise',                'block', 'P', true,  'published',          'published',         true,   'blocked'],
  ['published',            'revise',                'manual','P', true,  'published',          'published',         true,   'manual_review'],
  ['published',            'draft',                 '-',     'P', true,  'draft',              'draft',             false,  'none'],
  ['published',            'archive',               '-',     'P', true,  'draft',              'archived',          false,  'none'],
  ['published',            'schedule_no_time',      '-',     'P', true,  'published',          'published',         true,   'passed',        'scheduled_at'],
  ['published',            'request_review',        '-',     'P', true,  'published',          'published',         true,   'passed',        'status'],
  ['published_pending',    'publish',               'pass',  'P', true,  'published',          'published',         true,   'passed'],
  ['published_pending',    'schedule',              'pass',  'P', true,  'scheduled',          'scheduled',         false,  'passed'],
  ['published_pending',    'schedule',              'block', 'P', true,  'moderation_blocked', 'draft',             false,  'blocked'],
  ['moderation_blocked',   'publish',               'pass',  'P', false, 'published',          'published',         true,   'passed'],
  ['moderation_blocked',   'publish',               'block', 'P', false, 'moderation_blocked', 'draft',             false,  'blocked'],
  ['moderation_blocked',   'schedule',              'pass',  'P', false, 'scheduled',          'scheduled',         false,  'passed'],
  ['moderation_blocked',   'draft',                 '-',     'P', false, 'draft',              'draft',             false,  'none'],
  ['archived',             'draft',                 '-',     'P', false, 'draft',              'draft',             false,  'none'],
  ['archived',             'publish',               'pass',  'P', false, 'published',          'published',         true,   'passed'],
  ['archived',             'schedule',              'pass',  'P', false, 'scheduled',          'scheduled',         false,  'passed'],
  ['archived',             'archive',               '-',     'P', false, 'draft',              'archived',          false,  'none'],
  ['new',                  'create_publish',        'pass',  'S', false, 'published',          'published',         true,   'passed'],
  ['new',                  'create_publish',        'block', 'S', false, 'moderation_blocked', 'published',         false,  'blocked'],
  ['new',                  'create_publish',        'manual','S', false, 'moderation_review',  'published',         false,  'manual_review'],
  ['published',            'revise',                'block', 'S', true,  'published',          'published',         true,   'blocked'],
  ['published',            'schedule',              'pass',  'S', true,  'scheduled',          'scheduled',         false,  'passed'],
  ['published',            'schedule_primary_only', 'pass',  'S', true,  'draft',              'scheduled',         false,  'none'],
  ['published',            'draft',                 '-',     'S', true,  'draft',              'draft',             false,  'none'],
  ['published',            'draft_primary_only',    '-',     'S', true,  'draft',              'draft',             false,  'none'],
  ['published',            'archive',               '-',     'S', true,  'draft',              'archived',          false,  'none'],
] satisfies Cells[]).map(row));

const code = (value: string) => `\`${value}\``;

/** The table as Markdown, as `docs/LIFECYCLE.md` shows it between its markers. */
export function renderStateTable(rows: readonly StateTableRow[] = STATE_TABLE): string {
  const head = [
    '| From | Write | Moderation | Translation | Public before | → Translation status | `moderation` | Article status | Public after |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const lines = rows.map((r) => {
    const result = r.refused ? `422 naming ${code(r.refused)}; stays ${code(r.status)}` : code(r.status);
    const cells = [
      code(r.from),
      WRITE_LABELS[r.write],
      r.outcome === '-' ? '–' : r.outcome,
      r.role,
      r.publishedBefore ? 'yes' : 'no',
      result,
      code(r.moderation),
      code(r.article),
      r.public ? 'yes' : 'no',
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [...head, ...lines].join('\n');
}

/** The markers around the generated table in `docs/LIFECYCLE.md`. */
export const STATE_TABLE_MARKERS = {
  begin: '<!-- state-table:begin (generated from server/domain/article/state-table.ts by `npm run docs:lifecycle`; do not edit) -->',
  end: '<!-- state-table:end -->',
} as const;

/** `doc` with the section between the markers replaced by the rendered table. */
export function withStateTable(doc: string): string {
  const start = doc.indexOf(STATE_TABLE_MARKERS.begin);
  const end = doc.indexOf(STATE_TABLE_MARKERS.end);
  invariant(start >= 0 && end >= start, 'docs/LIFECYCLE.md has no state-table markers');
  return `${doc.slice(0, start + STATE_TABLE_MARKERS.begin.length)}\n\n${renderStateTable()}\n\n${doc.slice(end)}`;
}

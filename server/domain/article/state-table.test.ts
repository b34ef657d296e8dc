import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderStateTable, STATE_TABLE, STATE_TABLE_MARKERS, withStateTable } from './state-table.ts';

const doc = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/LIFECYCLE.md'), 'utf8');

describe('the state table in docs/LIFECYCLE.md', () => {
  it('is the rendering of the data, verbatim (run `npm run docs:lifecycle` after changing the rows)', () => {
    expect(doc).toContain(`${STATE_TABLE_MARKERS.begin}\n\n${renderStateTable()}\n\n${STATE_TABLE_MARKERS.end}`);
    expect(withStateTable(doc)).toBe(doc);
  });

  it('has one line per row and no row twice', () => {
    expect(renderStateTable().split('\n')).toHaveLength(STATE_TABLE.length + 2);
    const keys = STATE_TABLE.map((r) => [r.from, r.write, r.outcome, r.role].join(' '));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('covers every starting state', () => {
    const froms = new Set(STATE_TABLE.map((r) => r.from));
    for (const from of ['new', 'draft', 'moderation_review', 'scheduled', 'scheduled_paused', 'published', 'published_pending', 'moderation_blocked', 'archived']) {
      expect(froms).toContain(from);
    }
  });
});

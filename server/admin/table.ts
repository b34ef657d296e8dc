/**
 * Plain-text rendering for the admin listings: aligned columns that read well
 * in a terminal and survive `grep`/`awk` (no box drawing, no colours).
 * @module
 */

/** Shown in a cell that has no value, so columns never collapse. */
export const EMPTY_CELL = '-';

/**
 * Aligns rows under headers, two spaces between columns, no trailing spaces.
 * @param headers column titles; pass `null` for a header-less list.
 * @example formatTable(['NAME', 'PLAN'], [['ana', 'free']]) // "NAME  PLAN\nana   free"
 */
export function formatTable(headers: readonly string[] | null, rows: ReadonlyArray<readonly string[]>, indent = ''): string {
  const all = (headers ? [headers, ...rows] : [...rows]).map((row) => row.map(cleanCell));
  const widths: number[] = [];
  for (const row of all) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return all
    .map((row) => indent + row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd())
    .join('\n');
}

/**
 * A stored ISO time as `YYYY-MM-DD HH:MM` (UTC), or {@link EMPTY_CELL}.
 * Minutes are enough to tell keys apart and keep columns narrow.
 */
export function formatTime(iso: string | null): string {
  if (!iso) return EMPTY_CELL;
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** `1 channel`, `2 channels`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

// Free text (labels) is stored as given; control characters would break the
// alignment or, worse, send escape sequences to the administrator's terminal.
function cleanCell(cell: string): string {
  const text = cell.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  return text === '' ? EMPTY_CELL : text;
}

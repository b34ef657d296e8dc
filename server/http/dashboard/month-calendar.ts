/**
 * The weeks of a month in UTC, Monday first, for the schedule's calendar;
 * and the `month` of its address (`2026-12`). Pure.
 * @module
 */

/** A month: its year and its number (1–12). */
export interface Month {
  readonly year: number;
  readonly month: number;
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The weekdays, Monday first: full name and short. */
export const WEEKDAYS: ReadonlyArray<{ readonly name: string; readonly short: string }> = [
  { name: 'Monday', short: 'Mon' },
  { name: 'Tuesday', short: 'Tue' },
  { name: 'Wednesday', short: 'Wed' },
  { name: 'Thursday', short: 'Thu' },
  { name: 'Friday', short: 'Fri' },
  { name: 'Saturday', short: 'Sat' },
  { name: 'Sunday', short: 'Sun' },
];

/** `2026-12` → the month; null when it is not a month from 1970-01 to 9999-12. */
export function parseMonth(text: string): Month | null {
  const m = MONTH.exec(text);
  if (!m) return null;
  const year = Number(m[1]);
  return year >= 1970 ? { year, month: Number(m[2]) } : null;
}

/** The month of an instant, in UTC. */
export function monthOf(instant: Date): Month {
  return { year: instant.getUTCFullYear(), month: instant.getUTCMonth() + 1 };
}

/** `2026-12`. */
export function monthKey(m: Month): string {
  return `${String(m.year).padStart(4, '0')}-${String(m.month).padStart(2, '0')}`;
}

/** "December 2026". */
export function monthName(m: Month): string {
  return `${NAMES[m.month - 1]} ${m.year}`;
}

/** The month `delta` months away (null past 9999-12 or before 1970-01). */
export function addMonths(m: Month, delta: number): Month | null {
  const index = m.year * 12 + (m.month - 1) + delta;
  const next = { year: Math.floor(index / 12), month: (index % 12) + 1 };
  return next.year >= 1970 && next.year <= 9999 ? next : null;
}

/** `2026-12-01`: a day's date, the key of what is scheduled on it. */
export type DayKey = string;

/**
 * The month's weeks, Monday first: each a row of seven days of the month
 * (`YYYY-MM-DD`) or null for days of the months around it.
 */
export function monthWeeks(m: Month): Array<Array<DayKey | null>> {
  const first = new Date(Date.UTC(m.year, m.month - 1, 1));
  const days = new Date(Date.UTC(m.year, m.month, 0)).getUTCDate();
  // getUTCDay: Sunday 0; Monday first, so Monday is 0 here.
  const lead = (first.getUTCDay() + 6) % 7;
  const cells: Array<DayKey | null> = Array.from({ length: lead }, () => null);
  for (let day = 1; day <= days; day += 1) cells.push(`${monthKey(m)}-${String(day).padStart(2, '0')}`);
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: Array<Array<DayKey | null>> = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

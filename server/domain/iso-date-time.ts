/**
 * ISO 8601 date-times that name their offset, in every form the standard
 * gives them (issue 34: valid forms were refused as "not real"):
 *
 * - dates: calendar (`2030-11-24`, `20301124`), ordinal (`2030-328`,
 *   `2030328`) and week dates (`2030-W47-7`, `2030W477`);
 * - times after `T`: `hh`, `hh:mm`, `hh:mm:ss` or their basic forms `hhmm`,
 *   `hhmmss`, the last of them with a decimal fraction after `.` or `,`
 *   (`10:00:00,5`, `10:30.5` = 10:30:30, `10.25` = 10:15);
 * - the offset: `Z`, `±hh`, `±hh:mm` or `±hhmm`.
 *
 * Refused, each with a reason: no offset (a local time is ambiguous), a date
 * that does not exist in the calendar (2027-02-29, week 53 of a 52-week
 * year), hours past 23 (`24:00` included), minutes or seconds past 59 (a
 * leap second cannot be scheduled), years before 1000 or past 9999.
 * Pure: no clock, no time zone database.
 * @module
 */

const DATE_FORMS: ReadonlyArray<{ re: RegExp; kind: 'calendar' | 'ordinal' | 'week' }> = [
  { re: /^(\d{4})-(\d{2})-(\d{2})$/, kind: 'calendar' },
  { re: /^(\d{4})(\d{2})(\d{2})$/, kind: 'calendar' },
  { re: /^(\d{4})-W(\d{2})-(\d)$/i, kind: 'week' },
  { re: /^(\d{4})W(\d{2})(\d)$/i, kind: 'week' },
  { re: /^(\d{4})-(\d{3})$/, kind: 'ordinal' },
  { re: /^(\d{4})(\d{3})$/, kind: 'ordinal' },
];

/** hh, hh:mm, hh:mm:ss, hhmm, hhmmss; the last component may carry a fraction. */
const TIME = /^(\d{2})(?::?(\d{2})(?::?(\d{2}))?)?(?:[.,](\d{1,9}))?$/;
const OFFSET = /(Z|[+-]\d{2}(?::?\d{2})?)$/i;

const DAY_MS = 86_400_000;

/** Days since the epoch of a calendar date, or null when it does not exist. */
function calendarDay(year: number, month: number, day: number): number | null {
  if (month < 1 || month > 12 || day < 1) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth ? Date.UTC(year, month - 1, day) / DAY_MS : null;
}

/** Days since the epoch of day `ordinal` (1-based) of `year`. */
function ordinalDay(year: number, ordinal: number): number | null {
  const days = calendarDay(year, 12, 31)! - calendarDay(year, 1, 1)! + 1;
  return ordinal >= 1 && ordinal <= days ? calendarDay(year, 1, 1)! + ordinal - 1 : null;
}

/** Days since the epoch of the Monday of ISO week 1 of `year` (the week holding 4 January). */
function weekOneMonday(year: number): number {
  const jan4 = calendarDay(year, 1, 4)!;
  const weekday = (new Date(jan4 * DAY_MS).getUTCDay() + 6) % 7; // Monday 0
  return jan4 - weekday;
}

/** Days since the epoch of ISO week `week`, day `day` (1 Monday … 7 Sunday), or null. */
function weekDay(year: number, week: number, day: number): number | null {
  const weeks = (weekOneMonday(year + 1) - weekOneMonday(year)) / 7; // 52 or 53
  return week >= 1 && week <= weeks && day >= 1 && day <= 7 ? weekOneMonday(year) + (week - 1) * 7 + (day - 1) : null;
}

/** Milliseconds of `sign`·offset, or null when out of range. */
function offsetMs(text: string): number | null {
  if (text.toUpperCase() === 'Z') return 0;
  const sign = text[0] === '-' ? -1 : 1;
  const hours = Number(text.slice(1, 3));
  const minutes = Number(text.slice(3).replace(':', '') || '0');
  return hours <= 23 && minutes <= 59 ? sign * (hours * 60 + minutes) * 60_000 : null;
}

/**
 * The moment `value` names, or null when it is not an ISO 8601 date-time
 * with an offset naming a real calendar moment (see the module doc).
 */
export function parseIsoDateTime(value: string): Date | null {
  const t = value.indexOf('T') >= 0 ? value.indexOf('T') : value.indexOf('t');
  if (t < 0) return null;
  const datePart = value.slice(0, t);
  const rest = value.slice(t + 1);
  const offset = OFFSET.exec(rest);
  if (!offset) return null;
  const timePart = rest.slice(0, rest.length - offset[1]!.length);

  let day: number | null = null;
  for (const form of DATE_FORMS) {
    const m = form.re.exec(datePart);
    if (!m) continue;
    const year = Number(m[1]);
    if (year < 1000) return null;
    day = form.kind === 'calendar' ? calendarDay(year, Number(m[2]), Number(m[3])) : form.kind === 'week' ? weekDay(year, Number(m[2]), Number(m[3])) : ordinalDay(year, Number(m[2]));
    break;
  }
  if (day === null) return null;

  const time = TIME.exec(timePart);
  if (!time) return null;
  const [, hh, mm, ss, fraction] = time;
  const hours = Number(hh);
  const minutes = mm === undefined ? 0 : Number(mm);
  const seconds = ss === undefined ? 0 : Number(ss);
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  // The fraction belongs to the last component given.
  const unit = ss !== undefined ? 1000 : mm !== undefined ? 60_000 : 3_600_000;
  const fractionMs = fraction === undefined ? 0 : Math.round(Number(`0.${fraction}`) * unit);
  const shift = offsetMs(offset[1]!);
  if (shift === null) return null;
  const ms = day * DAY_MS + hours * 3_600_000 + minutes * 60_000 + seconds * 1000 + fractionMs - shift;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999 ? null : date;
}

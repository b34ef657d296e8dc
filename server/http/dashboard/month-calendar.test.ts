import { describe, expect, it } from 'vitest';
import { addMonths, monthKey, monthName, monthOf, monthWeeks, parseMonth } from './month-calendar.ts';

describe('the month calendar', () => {
  it('reads a month from the address, and nothing else', () => {
    expect(parseMonth('2026-12')).toEqual({ year: 2026, month: 12 });
    for (const bad of ['2026-13', '2026-00', '2026-1', '26-12', '1969-12', '2026-12-01', ' 2026-12', '']) expect(parseMonth(bad), bad).toBeNull();
  });

  it('lays the weeks out Monday first, with empty days around the month', () => {
    // December 2026 starts on a Tuesday and ends on a Thursday.
    const weeks = monthWeeks({ year: 2026, month: 12 });
    expect(weeks).toHaveLength(5);
    expect(weeks[0]).toEqual([null, '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06']);
    expect(weeks[4]).toEqual(['2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31', null, null, null]);
    // February 2027 starts on a Monday: four full weeks.
    expect(monthWeeks({ year: 2027, month: 2 }).flat().filter(Boolean)).toHaveLength(28);
    expect(monthWeeks({ year: 2027, month: 2 })).toHaveLength(4);
    expect(monthWeeks({ year: 2028, month: 2 }).flat()).toContain('2028-02-29');
  });

  it('moves between months across years, in UTC', () => {
    expect(addMonths({ year: 2026, month: 12 }, 1)).toEqual({ year: 2027, month: 1 });
    expect(addMonths({ year: 2027, month: 1 }, -1)).toEqual({ year: 2026, month: 12 });
    expect(addMonths({ year: 1970, month: 1 }, -1)).toBeNull();
    expect(monthOf(new Date('2026-11-30T23:30:00-05:00'))).toEqual({ year: 2026, month: 12 });
    expect([monthKey({ year: 2026, month: 3 }), monthName({ year: 2026, month: 3 })]).toEqual(['2026-03', 'March 2026']);
  });
});

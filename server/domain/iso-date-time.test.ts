import { describe, expect, it } from 'vitest';
import { parseIsoDateTime } from './iso-date-time.ts';

describe('ISO 8601 date-times with an offset', () => {
  it.each([
    // RFC 3339, the forms the API always took
    ['2030-11-24T10:00:00Z', '2030-11-24T10:00:00.000Z'],
    ['2030-11-24T10:00:00.123456789Z', '2030-11-24T10:00:00.123Z'],
    ['2030-11-24t10:00:00z', '2030-11-24T10:00:00.000Z'],
    ['2030-11-24T11:00:00+01:00', '2030-11-24T10:00:00.000Z'],
    ['2030-11-24T11:00:00+0100', '2030-11-24T10:00:00.000Z'],
    ['2030-11-24T11:00:00+01', '2030-11-24T10:00:00.000Z'],
    ['2030-11-24T05:30-04:30', '2030-11-24T10:00:00.000Z'],
    // basic format (issue 34)
    ['20301124T100000Z', '2030-11-24T10:00:00.000Z'],
    ['20301124T1000Z', '2030-11-24T10:00:00.000Z'],
    ['20301124T110000+0100', '2030-11-24T10:00:00.000Z'],
    ['20301124T10Z', '2030-11-24T10:00:00.000Z'],
    // decimal comma and fractions of the last component
    ['2030-11-24T10:00:00,5Z', '2030-11-24T10:00:00.500Z'],
    ['2030-11-24T10:30.5Z', '2030-11-24T10:30:30.000Z'],
    ['2030-11-24T10,25Z', '2030-11-24T10:15:00.000Z'],
    ['20301124T103000.25Z', '2030-11-24T10:30:00.250Z'],
    // week dates: 2030-11-24 is the Sunday of ISO week 47
    ['2030-W47-7T10:00:00Z', '2030-11-24T10:00:00.000Z'],
    ['2030W477T100000Z', '2030-11-24T10:00:00.000Z'],
    ['2026-W01-1T00:00Z', '2025-12-29T00:00:00.000Z'], // week 1 can start in the year before
    ['2026-W53-7T00:00Z', '2027-01-03T00:00:00.000Z'], // 2026 has 53 weeks
    // ordinal dates: day 328 of 2030
    ['2030-328T10:00Z', '2030-11-24T10:00:00.000Z'],
    ['2030328T1000Z', '2030-11-24T10:00:00.000Z'],
    ['2028-366T00:00Z', '2028-12-31T00:00:00.000Z'], // a leap year's last day
  ])('reads %s as %s', (value, iso) => {
    expect(parseIsoDateTime(value)?.toISOString()).toBe(iso);
  });

  it.each([
    ['2030-11-24T10:00:00', 'no offset'],
    ['2030-11-24', 'no time'],
    ['2027-02-29T09:00Z', 'not a leap year'],
    ['2027-W53-1T09:00Z', '2027 has 52 weeks'],
    ['2030-W00-1T09:00Z', 'no week 0'],
    ['2030-W10-8T09:00Z', 'no day 8'],
    ['2030-366T09:00Z', '2030 has 365 days'],
    ['2030-000T09:00Z', 'no day 0'],
    ['2030-11-24T24:00Z', 'hour 24'],
    ['2030-11-24T23:60Z', 'minute 60'],
    ['2030-11-24T23:59:60Z', 'a leap second'],
    ['2030-11-24T10:00+24:00', 'offset hour 24'],
    ['2030-11-24T10:00+01:60', 'offset minute 60'],
    ['2030-11-24T10:00+1', 'one-digit offset'],
    ['0999-11-24T10:00Z', 'a year before 1000'],
    ['2030-11-24T1:00Z', 'a one-digit hour'],
    ['2030-11-24T10:00:00.Z', 'an empty fraction'],
    ['2030-11-24 10:00:00Z', 'a space for T'],
    ['tomorrow', 'not a date'],
  ])('refuses %s (%s)', (value) => {
    expect(parseIsoDateTime(value)).toBeNull();
  });
});

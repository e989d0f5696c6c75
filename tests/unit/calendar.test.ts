/** The periods the jobs name in their keys, in UTC: the ISO week and the month before a run. */
import { isoWeekOf, monthBefore, monthName, weekBefore } from '../../server/lib/calendar';

describe('calendar periods in UTC', () => {
  it('when a day is named by its ISO week, then the week belongs to the year of its Thursday', () => {
    expect(isoWeekOf(new Date('2025-03-10T08:00:00Z'))).toBe('2025-W11');
    expect(isoWeekOf(new Date('2026-01-01T00:00:00Z'))).toBe('2026-W01');
    expect(isoWeekOf(new Date('2027-01-01T12:00:00Z'))).toBe('2026-W53');
    expect(isoWeekOf(new Date('2024-12-30T00:00:00Z'))).toBe('2025-W01');
  });

  it('when the digest runs, then it covers the whole ISO week before, Monday to Monday, whatever the day and hour', () => {
    const week = { week: '2025-W10', from: new Date('2025-03-03T00:00:00Z'), to: new Date('2025-03-10T00:00:00Z') };
    expect(weekBefore(new Date('2025-03-10T08:00:00Z'))).toEqual(week);
    expect(weekBefore(new Date('2025-03-10T00:00:00Z'))).toEqual(week);
    expect(weekBefore(new Date('2025-03-16T23:59:59Z'))).toEqual(week);
    expect(weekBefore(new Date('2027-01-04T08:00:00Z')).week).toBe('2026-W53');
  });

  it('when the statement runs, then it covers the calendar month before, across a year too', () => {
    expect(monthBefore(new Date('2025-02-01T06:00:00Z'))).toEqual({
      month: '2025-01',
      from: new Date('2025-01-01T00:00:00Z'),
      to: new Date('2025-02-01T00:00:00Z'),
    });
    expect(monthBefore(new Date('2025-01-15T00:00:00Z'))).toEqual({
      month: '2024-12',
      from: new Date('2024-12-01T00:00:00Z'),
      to: new Date('2025-01-01T00:00:00Z'),
    });
    expect(monthName('2024-12')).toBe('December 2024');
  });
});

import { describe, expect, it } from 'vitest';
import {
  canonicalTimeZone,
  dateOfDayNumber,
  dayNumberAt,
  dayNumberOf,
  offsetSegments,
  studyDateOf,
  studyDateStart,
  studyDayStart,
} from './study-day';

const HOUR = 3_600_000;
const zones = [
  'UTC',
  'America/Los_Angeles',
  'America/New_York',
  'Europe/Paris',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'America/Santiago',
];

describe('study days', () => {
  it('start at 04:00 local and last 23, 24 or 25 hours around daylight-saving changes', () => {
    expect(new Date(studyDateStart('2026-03-07', 'America/Los_Angeles')).toISOString()).toBe(
      '2026-03-07T12:00:00.000Z',
    );
    expect(new Date(studyDateStart('2026-03-08', 'America/Los_Angeles')).toISOString()).toBe(
      '2026-03-08T11:00:00.000Z',
    );
    expect(new Date(studyDateStart('2026-10-24', 'Europe/Paris')).toISOString()).toBe('2026-10-24T02:00:00.000Z');
    expect(new Date(studyDateStart('2026-10-25', 'Europe/Paris')).toISOString()).toBe('2026-10-25T03:00:00.000Z');
    expect(studyDateOf(Date.parse('2026-10-25T02:59:59.999Z'), 'Europe/Paris')).toBe('2026-10-24');
    expect(studyDayStart(Date.parse('2026-11-22T22:29:00.000Z'), 'Asia/Kolkata')).toBe(
      Date.parse('2026-11-21T22:30:00.000Z'),
    );
  });

  it('studyDayStart, remembered per zone, is right on both sides of every rollover, across DST and going back', () => {
    const zone = 'Europe/Paris';
    // 2026-10-25 04:00 Paris is 03:00 UTC (summer time ended at 01:00 UTC that night).
    const instants = [
      ['2026-10-24T12:00:00.000Z', '2026-10-24T02:00:00.000Z'],
      ['2026-10-25T02:59:59.999Z', '2026-10-24T02:00:00.000Z'],
      ['2026-10-25T03:00:00.000Z', '2026-10-25T03:00:00.000Z'],
      ['2026-10-26T02:59:59.999Z', '2026-10-25T03:00:00.000Z'],
      ['2026-10-26T03:00:00.000Z', '2026-10-26T03:00:00.000Z'],
      ['2026-10-24T12:00:00.000Z', '2026-10-24T02:00:00.000Z'],
    ];
    for (const [at, start] of instants) {
      expect(new Date(studyDayStart(Date.parse(at as string), zone)).toISOString()).toBe(start);
      expect(studyDayStart(Date.parse(at as string), zone)).toBe(
        studyDateStart(studyDateOf(Date.parse(at as string), zone), zone),
      );
    }
  });

  it('SQL’s day number (offset segments) agrees with luxon at every rollover and random instants, in every zone', () => {
    const from = Date.parse('2026-01-01T12:00:00.000Z');
    const to = Date.parse('2026-12-31T00:00:00.000Z');
    let seed = 7;
    const random = () => {
      seed = (seed * 16_807) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    for (const zone of zones) {
      const segments = offsetSegments(from, to, zone);
      const sqlDate = (ms: number) => {
        let offset = segments[0]?.offsetMs ?? 0;
        for (const segment of segments) if (ms >= segment.from) offset = segment.offsetMs;
        return dateOfDayNumber(dayNumberAt(ms, offset));
      };
      // The last millisecond of each study day and the first of the next.
      for (let date = '2026-01-02'; date < '2026-12-30'; date = dateOfDayNumber(dayNumberOf(date) + 1)) {
        const start = studyDateStart(date, zone);
        expect(sqlDate(start), `${zone} ${date}`).toBe(date);
        expect(sqlDate(start - 1), `${zone} before ${date}`).toBe(dateOfDayNumber(dayNumberOf(date) - 1));
      }
      for (let n = 0; n < 500; n++) {
        const ms = from + Math.floor(random() * (to - from));
        expect(sqlDate(ms), `${zone} ${new Date(ms).toISOString()}`).toBe(studyDateOf(ms, zone));
      }
    }
  });

  it('finds each daylight-saving change to the quarter hour', () => {
    const segments = offsetSegments(
      Date.parse('2026-01-01T00:00:00Z'),
      Date.parse('2026-12-31T00:00:00Z'),
      'Europe/Paris',
    );
    expect(segments.slice(1).map((segment) => [new Date(segment.from).toISOString(), segment.offsetMs / HOUR])).toEqual(
      [
        ['2026-03-29T01:00:00.000Z', 2],
        ['2026-10-25T01:00:00.000Z', 1],
      ],
    );
  });

  it('accepts IANA zones (any case, aliases kept) and refuses the rest', () => {
    expect(canonicalTimeZone('europe/paris')).toBe('Europe/Paris');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    expect(canonicalTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    for (const bad of [
      '',
      'Nowhere/Land',
      '+05:00',
      'GMT+5:00',
      '../Europe/Paris',
      'Europe/Paris\u0000',
      'x'.repeat(65),
    ]) {
      expect(canonicalTimeZone(bad)).toBeNull();
    }
  });
});

import { describe, expect, it } from 'vitest';
import {
  classifyLogStatus,
  formatDuration,
  renderServerLog,
} from '../../../src/discord/render/renderServerLog.js';
import type { ServerLogEntry } from '../../../src/hosting/operations.js';
import { translator } from '../../../src/i18n/Translator.js';
import { Colour } from '../../../src/replies/colours.js';

const en = translator('en');
const de = translator('de');

const START = new Date('2026-05-01T10:00:00Z');
const START_UNIX = START.getTime() / 1000;
const plusSeconds = (seconds: number) => new Date(START.getTime() + seconds * 1000);

function entry(overrides: Partial<ServerLogEntry> = {}): ServerLogEntry {
  return { type: 'reinstall', status: 'success', start: START, end: plusSeconds(330), ...overrides };
}

function field(embed: ReturnType<typeof renderServerLog>, name: string): string | undefined {
  return embed.fields?.find((candidate) => candidate.name === name)?.value;
}

describe('classifyLogStatus', () => {
  it.each([
    'success',
    'successful',
    'succeeded',
    'ok',
    'done',
    'completed',
    'complete',
    'finished',
    'SUCCESS',
    ' Ok ',
  ])('%s is a success', (status) => {
    expect(classifyLogStatus(status)).toBe('success');
  });

  it.each([
    'fail',
    'failed',
    'failure',
    'error',
    'errored',
    'aborted',
    'cancelled',
    'canceled',
    'timeout',
    'FAILED',
  ])('%s is a failure', (status) => {
    expect(classifyLogStatus(status)).toBe('failure');
  });

  it.each([
    'running',
    'pending',
    'queued',
    'in progress',
    'in_progress',
    'In-Progress',
    'IN  PROGRESS',
    'started',
    'processing',
    'waiting',
  ])('%s is running', (status) => {
    expect(classifyLogStatus(status)).toBe('running');
  });

  it.each(['', 'weird', 'not ok', 'successfully failed', '3'])('%j is unknown', (status) => {
    expect(classifyLogStatus(status)).toBe('unknown');
  });
});

describe('formatDuration', () => {
  it('uses at most two units, rounded down', () => {
    expect(formatDuration(0, en)).toBe('0 s');
    expect(formatDuration(999, en)).toBe('0 s');
    expect(formatDuration(12_000, en)).toBe('12 s');
    expect(formatDuration(59_999, en)).toBe('59 s');
    expect(formatDuration(60_000, en)).toBe('1 min');
    expect(formatDuration(330_000, en)).toBe('5 min 30 s');
    expect(formatDuration(3_600_000, en)).toBe('1 h');
    expect(formatDuration((2 * 3600 + 3 * 60 + 59) * 1000, en)).toBe('2 h 3 min');
    expect(formatDuration((3 * 86_400 + 4 * 3600 + 5) * 1000, en)).toBe('3 d 4 h');
    expect(formatDuration(86_400_000, en)).toBe('1 d');
  });
});

describe('renderServerLog', () => {
  it('shows the entry with Discord timestamps and a duration', () => {
    const embed = renderServerLog(42, entry(), en);
    expect(embed.title).toBe('Server 42 — log entry');
    expect(embed.color).toBe(Colour.success);
    expect(field(embed, 'Type')).toBe('reinstall');
    expect(field(embed, 'Status')).toBe('success');
    expect(field(embed, 'Started')).toBe(`<t:${START_UNIX}:f> (<t:${START_UNIX}:R>)`);
    expect(field(embed, 'Ended')).toBe(`<t:${START_UNIX + 330}:f> (<t:${START_UNIX + 330}:R>)`);
    expect(field(embed, 'Duration')).toBe('5 min 30 s');
    expect(embed.fields?.map((f) => f.name)).toEqual(['Type', 'Status', 'Started', 'Ended', 'Duration']);
  });

  it('colours by status class, case-insensitively', () => {
    expect(renderServerLog(1, entry({ status: 'Completed' }), en).color).toBe(Colour.success);
    expect(renderServerLog(1, entry({ status: 'ERROR' }), en).color).toBe(Colour.danger);
    expect(renderServerLog(1, entry({ status: 'In_Progress', end: null }), en).color).toBe(Colour.warning);
    expect(renderServerLog(1, entry({ status: 'mystery' }), en).color).toBe(Colour.neutral);
  });

  it('always shows the raw status, escaped', () => {
    const embed = renderServerLog(1, entry({ status: '**weird** @everyone <@&1>' }), en);
    expect(field(embed, 'Status')).toBe('\\*\\*weird\\*\\* @\u200beveryone <\u200b@&1>');
    expect(embed.color).toBe(Colour.neutral);
    expect(field(renderServerLog(1, entry({ status: 'FAILED' }), en), 'Status')).toBe('FAILED');
    expect(field(renderServerLog(1, entry({ type: '_x_' }), en), 'Type')).toBe('\\_x\\_');
  });

  it('never sends an empty field value', () => {
    const embed = renderServerLog(1, entry({ type: '', status: '   ' }), en);
    expect(field(embed, 'Type')).toBe('—');
    expect(field(embed, 'Status')).toBe('—');
    for (const f of embed.fields ?? []) expect(f.value.trim()).not.toBe('');
  });

  it('keeps long values within the field limit', () => {
    const embed = renderServerLog(1, entry({ type: 'x'.repeat(5000), status: '`'.repeat(5000) }), en);
    for (const f of embed.fields ?? []) expect(f.value.length).toBeLessThanOrEqual(1024);
  });

  it('says "still running" for a running entry without an end', () => {
    const embed = renderServerLog(7, entry({ status: 'running', end: null }), en);
    expect(field(embed, 'Ended')).toBe('still running');
    expect(field(embed, 'Duration')).toBe('—');
  });

  it('uses "—" for a missing end when the status does not say it runs', () => {
    const embed = renderServerLog(7, entry({ status: 'failed', end: null }), en);
    expect(field(embed, 'Ended')).toBe('—');
    expect(field(embed, 'Duration')).toBe('—');
  });

  it('uses "—" for a missing start', () => {
    const embed = renderServerLog(7, entry({ status: 'queued', start: null, end: null }), en);
    expect(field(embed, 'Started')).toBe('—');
    expect(field(embed, 'Ended')).toBe('still running');
    expect(field(embed, 'Duration')).toBe('—');
  });

  it('shows "—" rather than a negative duration', () => {
    const embed = renderServerLog(7, entry({ end: plusSeconds(-60) }), en);
    expect(field(embed, 'Duration')).toBe('—');
    expect(field(embed, 'Ended')).toBe(`<t:${START_UNIX - 60}:f> (<t:${START_UNIX - 60}:R>)`);
  });

  it('formats short and long durations', () => {
    expect(field(renderServerLog(1, entry({ end: plusSeconds(12) }), en), 'Duration')).toBe('12 s');
    expect(field(renderServerLog(1, entry({ end: plusSeconds(2 * 3600 + 3 * 60) }), en), 'Duration')).toBe(
      '2 h 3 min',
    );
    expect(field(renderServerLog(1, entry({ end: START }), en), 'Duration')).toBe('0 s');
  });

  it('treats an invalid date as missing', () => {
    const embed = renderServerLog(1, entry({ start: new Date(Number.NaN) }), en);
    expect(field(embed, 'Started')).toBe('—');
    expect(field(embed, 'Duration')).toBe('—');
  });
});

describe('renderServerLog in German', () => {
  it('names the title and fields in German; times stay Discord timestamps', () => {
    const embed = renderServerLog(1234, entry(), de);
    expect(embed.title).toBe('Server 1234 — Logeintrag');
    expect(embed.fields?.map((f) => f.name)).toEqual(['Typ', 'Status', 'Gestartet', 'Beendet', 'Dauer']);
    expect(field(embed, 'Gestartet')).toBe(`<t:${START_UNIX}:f> (<t:${START_UNIX}:R>)`);
    expect(field(embed, 'Dauer')).toBe('5 min 30 s');
    expect(field(renderServerLog(7, entry({ status: 'running', end: null }), de), 'Beendet')).toBe(
      'läuft noch',
    );
  });

  it('formats durations in German', () => {
    expect(formatDuration(12_000, de)).toBe('12 s');
    expect(formatDuration((2 * 3600 + 3 * 60) * 1000, de)).toBe('2 h 3 min');
    expect(formatDuration((3 * 86_400 + 4 * 3600) * 1000, de)).toBe('3 Tg. 4 h');
    expect(formatDuration(1234 * 86_400_000, de)).toBe('1.234 Tg.');
    expect(formatDuration(1234 * 86_400_000, en)).toBe('1,234 d');
  });
});

import { describe, expect, it } from 'vitest';
import { describeError } from '../../src/discord/describeError.js';
import { translator } from '../../src/i18n/Translator.js';
import type { WatchedDomain } from '../../src/store/index.js';
import { parseDomainFile } from '../../src/watch/domainFile.js';
import { renderWatchLine, watchFlags } from '../../src/watch/renderWatchLines.js';

const en = translator('en');
const de = translator('de');

const row = (overrides: Partial<WatchedDomain> = {}): WatchedDomain => ({
  domain: 'example.com',
  unicode: 'example.com',
  addedById: '100000000000000001',
  addedAt: new Date('2030-01-01T00:00:00Z'),
  checkedAt: new Date('2030-03-01T07:00:00Z'),
  status: 'ok',
  failures: 0,
  expiryDate: '2040-03-04',
  active: true,
  expired: false,
  transferredAway: false,
  ...overrides,
});
const watch = (days: number | null) => ({ daysLeft: () => days });

describe('/watch list lines', () => {
  it('English reads as before: days ungrouped, ISO date, flags, relative check time', () => {
    expect(renderWatchLine(watch(3650), row({ active: false, failures: 1 }), en)).toBe(
      '**3650 d** · example.com · 2040-03-04 · ⚠️ inactive, failing (1 run) · checked <t:1898578800:R>',
    );
    expect(renderWatchLine(watch(null), row({ status: 'new', expiryDate: null, checkedAt: null }), en)).toBe(
      '**not checked yet** · example.com · never checked',
    );
  });

  it('German: words, plural of runs, and the date in German format', () => {
    expect(renderWatchLine(watch(3650), row({ active: false, failures: 2 }), de)).toBe(
      '**3650 T** · example.com · 04.03.2040 · ⚠️ inaktiv, schlägt fehl (2 Läufe) · geprüft <t:1898578800:R>',
    );
    expect(
      renderWatchLine(watch(null), row({ status: 'not_found', expiryDate: null, checkedAt: null }), de),
    ).toBe('**unbekannt** · example.com · ⚠️ nicht gefunden · nie geprüft');
    expect(watchFlags(row({ expired: true, transferredAway: true, failures: 1 }), de)).toEqual([
      'abgelaufen',
      'wegtransferiert',
      'schlägt fehl (1 Lauf)',
    ]);
  });
});

describe('/watch add file errors, in the reader’s language', () => {
  const text = (error: unknown, t = en) => describeError(error, 'cid', t).message;
  const thrown = (run: () => unknown): unknown => {
    try {
      run();
    } catch (error) {
      return error;
    }
    throw new Error('expected a throw');
  };

  it('an empty file', () => {
    const error = thrown(() => parseDomainFile('# nothing\n\n'));
    expect(text(error)).toBe(
      '`file`: holds no domain names. Expected a text or CSV file (.txt, .csv) with one domain per line or in the first column, at most 10,000 names and 1 MB.',
    );
    expect(text(error, de)).toBe(
      '`file`: enthält keine Domainnamen. Erwartet: eine Text- oder CSV-Datei (.txt, .csv) mit einer Domain pro Zeile oder in der ersten Spalte, höchstens 10.000 Namen und 1 MB.',
    );
  });

  it('too many names', () => {
    const error = thrown(() => parseDomainFile('a.example\nb.example\nc.example\n', 2));
    expect(text(error)).toMatch(
      /^`file`: lists more than 2 names\. Expected .*; split it into several files\.$/,
    );
    expect(text(error, de)).toMatch(
      /^`file`: enthält mehr als 2 Namen\. Erwartet: .*; teil sie auf mehrere Dateien auf\.$/,
    );
  });
});

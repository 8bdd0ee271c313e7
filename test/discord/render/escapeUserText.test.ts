import { describe, expect, it } from 'vitest';
import { escapeUserText } from '../../../src/replies/escapeUserText.js';

const ZWSP = '\u200b';

describe('escapeUserText', () => {
  it('leaves plain text alone', () => {
    expect(escapeUserText('example.com')).toBe('example.com');
    expect(escapeUserText('bücher.de')).toBe('bücher.de');
    expect(escapeUserText('')).toBe('');
  });

  it('makes @everyone and @here inert', () => {
    expect(escapeUserText('hi @everyone')).toBe(`hi @${ZWSP}everyone`);
    expect(escapeUserText('@here')).toBe(`@${ZWSP}here`);
    expect(escapeUserText('@EveryOne')).toBe(`@${ZWSP}EveryOne`);
  });

  it('makes user, role, channel and command mentions inert', () => {
    expect(escapeUserText('<@&1>')).toBe(`<${ZWSP}@&1>`);
    expect(escapeUserText('<@123>')).toBe(`<${ZWSP}@123>`);
    expect(escapeUserText('<@!123>')).toBe(`<${ZWSP}@!123>`);
    expect(escapeUserText('<#456>')).toBe(`<${ZWSP}#456>`);
    expect(escapeUserText('</ban:789>')).toBe(`<${ZWSP}/ban:789>`);
    for (const text of ['<@&1>', '<@123>', '<#456>', '@everyone', '@here']) {
      const escaped = escapeUserText(text);
      expect(escaped).not.toMatch(/<[@#]|@(everyone|here)/);
    }
  });

  it('leaves e-mail addresses readable', () => {
    expect(escapeUserText('admin@example.com')).toBe('admin@example.com');
  });

  it('escapes markdown', () => {
    expect(escapeUserText('**bold**')).toBe('\\*\\*bold\\*\\*');
    expect(escapeUserText('_under_ ~~strike~~ ||spoiler||')).toBe(
      '\\_under\\_ \\~\\~strike\\~\\~ \\|\\|spoiler\\|\\|',
    );
    expect(escapeUserText('[click](https://evil.example)')).toBe('\\[click](https://evil.example)');
    expect(escapeUserText('# big')).toBe('\\# big');
    expect(escapeUserText('> quote')).toBe('\\> quote');
    expect(escapeUserText('-# small')).toBe('\\-# small');
    expect(escapeUserText('- item')).toBe('\\- item');
    expect(escapeUserText('back\\slash')).toBe('back\\\\slash');
  });

  it('escapes every markdown character, not only the pairs escapeMarkdown recognises', () => {
    for (const text of ['____', '~~~', '*****', '|||', '~a', '|a', '***x** y*']) {
      const escaped = escapeUserText(text);
      // Each special character is preceded by a backslash.
      expect(escaped).toBe(text.replace(/([*_~|])/g, '\\$1'));
    }
  });

  it('keeps links usable but still escapes backticks in them', () => {
    expect(escapeUserText('see https://example.com/a_b_c and _x_')).toBe(
      'see https://example.com/a_b_c and \\_x\\_',
    );
    expect(escapeUserText('https://example.com/```')).toBe('https://example.com/\\`\\`\\`');
  });

  it('escapes every backtick so the text cannot open or close a code block', () => {
    const escaped = escapeUserText('```js\nevil``` and `code`');
    expect(escaped).toBe('\\`\\`\\`js evil\\`\\`\\` and \\`code\\`');
    expect(escaped).not.toMatch(/(^|[^\\])`/);
    // An escaped backslash before a backtick must not leave the backtick bare.
    expect(escapeUserText('\\`')).toBe('\\\\\\`');
  });

  it('collapses line breaks to one space unless asked to keep them', () => {
    expect(escapeUserText('a\nb\r\n\r\nc \n d')).toBe('a b c d');
    expect(escapeUserText('a\u2028b')).toBe('a b');
    expect(escapeUserText('a\r\nb\n# c', 200, { keepNewlines: true })).toBe('a\nb\n\\# c');
    expect(escapeUserText('a\n> q\n-# s', 200, { keepNewlines: true })).toBe('a\n\\> q\n\\-# s');
  });

  it('drops control and bidi override characters', () => {
    expect(escapeUserText('a\u0000b\u0007c\u202ed\u2066e')).toBe('abcde');
    expect(escapeUserText('a\tb')).toBe('a\tb');
  });

  it('truncates long input with an ellipsis, escapes included in the limit', () => {
    const long = escapeUserText('x'.repeat(10_000));
    expect(long).toBe(`${'x'.repeat(199)}…`);
    expect(escapeUserText('abcdef', 4)).toBe('abc…');

    const stars = escapeUserText('*'.repeat(500), 50);
    expect(stars.length).toBeLessThanOrEqual(50);
    expect(stars).toBe(`${'\\*'.repeat(24)}…`);

    const mentions = escapeUserText('@everyone '.repeat(100), 100);
    expect(mentions.length).toBeLessThanOrEqual(100);
    expect(mentions).not.toMatch(/@everyone/);
  });

  it('never splits an escape or a surrogate pair when cutting', () => {
    for (let max = 1; max < 30; max++) {
      const cut = escapeUserText('a*😀`_'.repeat(20), max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut.endsWith('…')).toBe(true);
      // An odd run of backslashes right before the ellipsis would escape it.
      expect(cut).not.toMatch(/(^|[^\\])(\\\\)*\\…$/);
      expect(cut).not.toMatch(/[\ud800-\udbff]…$/);
    }
  });

  // A quadratic pattern on the long blank run would take minutes here and hit the test timeout; how
  // fast it is belongs in bench/, not in an assertion on a loaded machine's clock.
  it('cuts a 1.2 MB paste with long blank and markdown runs', () => {
    const huge = `${'x'.repeat(500_000)}${' '.repeat(500_000)}\n${'_*'.repeat(100_000)}`;
    expect(escapeUserText(huge).length).toBeLessThanOrEqual(200);
    expect(escapeUserText(huge, 200, { keepNewlines: true }).length).toBeLessThanOrEqual(200);
  });

  it('returns nothing for a zero length', () => {
    expect(escapeUserText('abc', 0)).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import { renderMessage, supportsColour } from '../../src/console/renderText.js';
import { translator } from '../../src/i18n/Translator.js';
import { Colour } from '../../src/replies/colours.js';

const plain = { colour: false, timeZone: 'UTC', now: () => new Date('2026-01-01T12:00:00Z') };

describe('renderText', () => {
  it('shows an embed as title, fields and footer with a plain status word, escapes removed', () => {
    const text = renderMessage(
      {
        content: '**Bold** \\*not italic\\* <@100000000000000001>',
        embeds: [
          {
            title: 'a\\_b.example',
            color: Colour.danger,
            description: 'Expires <t:1767225600:D>, prompt ends <t:1767269100:R>',
            fields: [{ name: 'IP', value: '`203.0.113.7`' }],
            footer: { text: 'Reference x' },
          },
        ],
      },
      { ...plain, names: { users: { '100000000000000001': 'console:me' } } },
    );
    expect(text).toBe(
      [
        'Bold *not italic* @console:me',
        '[error] a_b.example',
        '  Expires 1 Jan 2026, prompt ends in 5 minutes (12:05)',
        '  IP: `203.0.113.7`',
        '  Reference x',
      ].join('\n'),
    );
  });

  it('colours the marker only when the terminal supports it and NO_COLOR is unset', () => {
    const tty = { isTTY: true, hasColors: () => true };
    expect(supportsColour(tty, {})).toBe(true);
    expect(supportsColour(tty, { NO_COLOR: '1' })).toBe(false);
    expect(supportsColour({ isTTY: false }, {})).toBe(false);
    const coloured = renderMessage({ embeds: [{ title: 'Done', color: Colour.success }] }, { colour: true });
    expect(coloured).toContain('\u001b[32m●');
  });

  it('in German: status words, dates, relative times and the buttons to type', () => {
    const text = renderMessage(
      {
        embeds: [
          {
            title: 'Domain',
            color: Colour.warning,
            description: 'Läuft ab <t:1767225600:D>, Abfrage endet <t:1767269100:R>',
          },
        ],
        components: [
          {
            components: [
              { label: 'Bestätigen', custom_id: 'hostops:confirm:1' },
              { label: 'Abbrechen', custom_id: 'hostops:cancel:1' },
            ],
          },
        ],
      },
      { ...plain, t: translator('de') },
    );
    expect(text).toBe(
      [
        '[Warnung] Domain',
        '  Läuft ab 01.01.2026, Abfrage endet in 5 Minuten (12:05)',
        'Gib bestätigen oder abbrechen ein.',
      ].join('\n'),
    );
  });

  it('in English the buttons to type are joined by "or" (unchanged)', () => {
    const buttons = ['Approve', 'Reject', 'Try again'].map((label, i) => ({ label, custom_id: `x:${i}` }));
    expect(renderMessage({ components: [{ components: buttons }] }, plain)).toBe(
      'Type approve or reject or try again.',
    );
  });
});

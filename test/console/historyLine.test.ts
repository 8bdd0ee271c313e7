// What the console's history keeps of a typed line: every value that is, or may be, a licence key masked —
// parsed or not, in English or German, named or by position — and everything else as typed.
import { describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { historyLine } from '../../src/console/historyLine.js';

const kept = (line: string) => historyLine(line, commands);

describe('historyLine', () => {
  it('masks the key of a line that parses, by position or by name', () => {
    expect(kept('/panel bind SECRETKEY-1234 203.0.113.7')).toBe('/panel bind …1234 203.0.113.7');
    expect(kept('/panel bind ip:203.0.113.7 license:SECRETKEY-1234')).toBe(
      '/panel bind ip:203.0.113.7 license:…1234',
    );
    expect(kept('/panel bind "SECRET\\"KEY-98" 203.0.113.7')).toBe('/panel bind …Y-98 203.0.113.7');
  });

  it('masks the key of a line that does not parse: a mistyped or German option name, a missing option', () => {
    // `licence` is no option: the line fails, and both values may be the key.
    const licence = kept('/panel bind licence:SECRETKEY-1234 203.0.113.7');
    expect(licence).not.toContain('SECRETKEY');
    expect(licence).toMatch(/^\/panel bind licence:…1234 /);
    // German names, whatever the terminal's language.
    expect(kept('/panel bind lizenz:GEHEIMKEY-5678 ip:203.0.113.7')).toBe(
      '/panel bind lizenz:…5678 ip:203.0.113.7',
    );
    expect(kept('/panel binden lizenz:GEHEIMKEY-5678')).toBe('/panel binden lizenz:…5678');
    expect(kept('/PANEL Bind LICENSE:SECRETKEY-1234')).toBe('/PANEL Bind …1234');
    expect(kept('/panel bind SECRETKEY-1234')).toBe('/panel bind …1234');
    expect(kept('/panel bind ip:203.0.113.7 license:SECRETKEY-1234 license:OTHERKEY-9876')).toBe(
      '/panel bind ip:203.0.113.7 license:…1234 license:…9876',
    );
    expect(kept('/panel bind SECRETKEY-1234 203.0.113.7 EXTRAKEY-5555')).not.toContain('KEY');
  });

  it('masks what looks like a key where no command can be told, and a secret option named anywhere', () => {
    expect(kept('/panle bind SECRETKEY-1234 203.0.113.7')).toBe('/panle bind …1234 203.0.113.7');
    expect(kept('/panel bnd SECRETKEY-1234 203.0.113.7')).toBe('/panel bnd …1234 203.0.113.7');
    expect(kept('/server rdns 42 203.0.113.7 host.example.com license:SECRETKEY')).toBe(
      '/server rdns 42 203.0.113.7 host.example.com license:…TKEY',
    );
    // An unclosed quote: the rest of the line is the value.
    expect(kept('/panel bind "SECRET KEY-1234 203.0.113.7')).toBe('/panel bind …13.7');
    // Last characters that would split the line are quoted.
    expect(kept('/panel bind "SECRET KEY 1 2" 203.0.113.7')).toBe('/panel bind "… 1 2" 203.0.113.7');
  });

  it('keeps everything else as typed, and a kept line as it is', () => {
    for (const line of [
      '/server rdns 42 203.0.113.7 host.example.com',
      '/server rdns id:abc',
      '/domain info example.com',
      '/domain expiry domains:"a.com b.com" within:14',
      '/domian info example.com',
      'confirm',
      'revert example.com',
      '',
    ]) {
      expect(kept(line)).toBe(line);
    }
    for (const line of [
      '/panel bind licence:SECRETKEY-1234 203.0.113.7',
      '/panel bind "SECRET KEY 1 2" 203.0.113.7',
      '/panel binden lizenz:GEHEIMKEY-5678',
    ]) {
      expect(kept(kept(line))).toBe(kept(line));
    }
  });
});

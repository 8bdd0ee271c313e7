import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { CommandLineError } from '../../src/console/CommandLineError.js';
import { parseCommandLine } from '../../src/console/parseCommandLine.js';
import { tokenize } from '../../src/console/tokenize.js';
import { translator } from '../../src/i18n/Translator.js';

const definitions = commands.map((c) => c.definition);
const parse = (line: string) => parseCommandLine(line, definitions);
const values = (line: string) => Object.fromEntries(parse(line).options.map((o) => [o.name, o.value]));

describe('parseCommandLine', () => {
  it('fills required options in order from positional values', () => {
    const parsed = parse('/domain info example.com');
    expect(parsed).toMatchObject({
      commandName: 'domain',
      group: null,
      subcommand: 'info',
      label: '/domain info',
    });
    expect(parsed.options).toEqual([
      { name: 'domain', type: ApplicationCommandOptionType.String, value: 'example.com' },
    ]);
  });

  it('takes name:value for any option and converts integers and booleans per the definition', () => {
    expect(values('/server rdns id:42 ip:203.0.113.7 hostname:host.example.com validate:false')).toEqual({
      id: 42,
      ip: '203.0.113.7',
      hostname: 'host.example.com',
      validate: false,
    });
    expect(values('/server rdns 42 203.0.113.7 host.example.com')).toEqual({
      id: 42,
      ip: '203.0.113.7',
      hostname: 'host.example.com',
    });
  });

  it('groups quoted words, in a value and as a whole word', () => {
    expect(values('/domain expiry domains:"a.com b.com" within:14')).toEqual({
      domains: 'a.com b.com',
      within: 14,
    });
    expect(values(`/domain expiry 'a.com, b.com' 7`)).toEqual({ domains: 'a.com, b.com', within: 7 });
    expect(tokenize('a "b \\" c" d').map((t) => t.text)).toEqual(['a', 'b " c', 'd']);
  });

  it('mixes named and positional values; a quoted word is never an option name', () => {
    expect(values('/server rdns hostname:h.example.com 42 203.0.113.7')).toEqual({
      id: 42,
      ip: '203.0.113.7',
      hostname: 'h.example.com',
    });
    expect(values('/domain dns example.com "www:x"')).toEqual({ domain: 'example.com', records: 'www:x' });
  });

  it('maps a choice given by its name to its value', () => {
    expect(values('/audit command:"/server logs" outcome:refused days:3')).toEqual({
      command: 'server logs',
      outcome: 'refused',
      days: 3,
    });
  });

  it.each([
    ['/nope', /unknown command \/nope/],
    ['/domain', /needs a subcommand: info, expiry, register, dns/],
    ['/domain lookup x', /no subcommand lookup/],
    ['/domain info example.com colour:red', /no option colour/],
    ['/server logs abc', /option id: "abc" is not a whole number/],
    ['/server logs 0', /below the minimum of 1/],
    ['/server rdns 42 203.0.113.7', /missing hostname/],
    ['/server logs 1 2', /too many values/],
    ['/server rdns 1 2 h validate:maybe', /not true or false/],
    ['/audit outcome:great', /not one of/],
    ['/domain info "example.com', /unclosed double quote/],
    ['/server logs id:1 id:2', /given twice/],
    ['/watch add file:x.txt', /cannot be given in the console/],
    ['', /empty command/],
  ])('%s → a clear error', (line, message) => {
    expect(() => parse(line)).toThrow(CommandLineError);
    expect(() => parse(line)).toThrow(message);
  });

  it('takes a command without subcommands, and leaves colons in values that are not option names', () => {
    expect(parse('/help')).toMatchObject({ commandName: 'help', subcommand: null, options: [] });
    expect(values('/panel bind ABC-123 2001:db8::1')).toEqual({ license: 'ABC-123', ip: '2001:db8::1' });
  });

  it('in German: takes the German names Discord shows beside the English ones, and the German choices', () => {
    const german = (line: string) => parseCommandLine(line, definitions, 'de');
    expect(german('/domain ablauf domains:a.com innerhalb:14')).toMatchObject({
      commandName: 'domain',
      subcommand: 'expiry',
      label: '/domain expiry',
      options: [
        { name: 'domains', value: 'a.com' },
        { name: 'within', value: 14 },
      ],
    });
    expect(german('/überwachung liste')).toMatchObject({ commandName: 'watch', subcommand: 'list' });
    expect(german('/server rdns 42 203.0.113.7 h.example.com prüfen:nein').options.at(-1)).toMatchObject({
      name: 'validate',
      value: false,
    });
    const audit = german('/audit befehl:"/server protokoll" ergebnis:abgebrochen');
    expect(Object.fromEntries(audit.options.map((o) => [o.name, o.value]))).toEqual({
      command: 'server logs',
      outcome: 'cancelled',
    });
    // English keeps working in German, and German names are not taken in English.
    expect(german('/domain expiry a.com')).toMatchObject({ subcommand: 'expiry' });
    expect(() => parse('/domain ablauf a.com')).toThrow(/no subcommand ablauf/);
  });

  it('in German: the problem in German words, the English one as the error message', () => {
    const problem = (line: string) => {
      try {
        parseCommandLine(line, definitions, 'de');
      } catch (error) {
        if (!(error instanceof CommandLineError)) throw error;
        return { de: translator('de').render(error.text), en: error.message };
      }
      throw new Error(`no error for ${line}`);
    };
    expect(problem('/server logs abc')).toEqual({
      de: 'Option id: "abc" ist keine ganze Zahl',
      en: 'option id: "abc" is not a whole number',
    });
    expect(problem('/server rdns 42 203.0.113.7').de).toBe(
      '/server rdns: es fehlt hostname (Hostname für den rDNS-Eintrag (host.example.com))',
    );
    expect(problem('/domain').de).toBe(
      '/domain braucht einen Unterbefehl: info, expiry, register, dns, records',
    );
    expect(problem('/server logs 0').de).toBe('Option id: 0 liegt unter dem Minimum von 1');
  });
});

// The console's actor: one definition (name and made-up id together), and how a message names it.
import { describe, expect, it } from 'vitest';
import { actorMention } from '../../src/replies/actorMention.js';
import { consoleActor, isConsoleActor } from '../../src/text/consoleActor.js';

describe('consoleActor', () => {
  it('is `console:<os user>` with a stable 18-digit id of its own per OS user', () => {
    const alice = consoleActor('alice');
    expect(alice.name).toBe('console:alice');
    expect(alice.id).toMatch(/^\d{18}$/);
    expect(consoleActor('alice')).toEqual(alice);
    expect(consoleActor('bob').id).not.toBe(alice.id);
  });

  it('is recognised by name and id together: a name alone, or another id, is not one', () => {
    const { id, name } = consoleActor('alice');
    expect(isConsoleActor(id, name)).toBe(true);
    expect(isConsoleActor('300000000000000001', name)).toBe(false);
    expect(isConsoleActor(consoleActor('bob').id, name)).toBe(false);
    expect(isConsoleActor(id, 'alice')).toBe(false);
    expect(isConsoleActor(id, undefined)).toBe(false);
  });
});

describe('actorMention', () => {
  it('names a console actor as `console:<name>`, markdown escaped, and mentions anyone else', () => {
    const alice = consoleActor('alice');
    expect(actorMention(alice.id, alice.name)).toBe('console:alice');
    const underscored = consoleActor('ops_bot');
    expect(actorMention(underscored.id, underscored.name)).toBe('console:ops\\_bot');
    expect(actorMention('300000000000000001', 'alice')).toBe('<@300000000000000001>');
    expect(actorMention('300000000000000001', alice.name)).toBe('<@300000000000000001>');
    expect(actorMention('300000000000000001', undefined)).toBe('<@300000000000000001>');
  });
});

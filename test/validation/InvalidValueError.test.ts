import { describe, expect, it } from 'vitest';
import { message, translator } from '../../src/i18n/Translator.js';
import { InvalidValueError } from '../../src/validation/InvalidValueError.js';

describe('InvalidValueError', () => {
  it('carries the messages, an English message for logs and its own name', () => {
    const problem = message('validation.label_contains', { label: '"exa_mple"', character: '"_"' });
    const expected = message('validation.domain.expected');
    const error = new InvalidValueError(problem, expected);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('InvalidValueError');
    expect(error.problem).toBe(problem);
    expect(error.expected).toBe(expected);
    expect(error.message).toBe('label "exa_mple" contains "_"');
    expect(translator('en').render(error.expected)).toBe('a domain name such as example.com or bücher.de');
    expect(String(error)).toBe('InvalidValueError: label "exa_mple" contains "_"');
  });

  it('renders in German for a German reader', () => {
    const de = translator('de');
    const error = new InvalidValueError(
      message('validation.label_contains', { label: '"exa_mple"', character: '"_"' }),
      message('validation.domain.expected'),
    );
    expect(de.render(error.problem)).toBe('Label "exa_mple" enthält "_"');
    expect(de.render(error.expected)).toBe('ein Domainname wie example.com oder bücher.de');
    // The Error's own message stays English, for logs.
    expect(error.message).toBe('label "exa_mple" contains "_"');
  });
});

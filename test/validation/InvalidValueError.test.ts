import { describe, expect, it } from 'vitest';
import { InvalidValueError } from '../../src/validation/InvalidValueError.js';

describe('InvalidValueError', () => {
  it('carries the message, what was expected and its own name', () => {
    const error = new InvalidValueError('label "exa_mple" contains "_"', 'a domain name such as example.com');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('InvalidValueError');
    expect(error.message).toBe('label "exa_mple" contains "_"');
    expect(error.expected).toBe('a domain name such as example.com');
    expect(String(error)).toBe('InvalidValueError: label "exa_mple" contains "_"');
  });
});

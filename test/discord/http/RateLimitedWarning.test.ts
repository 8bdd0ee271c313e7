import { describe, expect, it } from 'vitest';
import { RateLimitedWarning } from '../../../src/discord/http/RateLimitedWarning.js';

describe('RateLimitedWarning', () => {
  const setUp = () => {
    let now = 1_000_000;
    const said: number[] = [];
    const warning = new RateLimitedWarning(
      (count) => said.push(count),
      () => now,
    );
    return {
      said,
      note: (times = 1) => {
        for (let i = 0; i < times; i += 1) warning.note();
      },
      advance: (ms: number) => {
        now += ms;
      },
    };
  };

  it('says the first at once, then nothing for a minute however many arrive', () => {
    const { said, note, advance } = setUp();
    note();
    expect(said).toEqual([1]);
    note(10_000);
    advance(59_000);
    note(5);
    expect(said).toEqual([1]);
  });

  it('a minute after the last line, says how many arrived in the last minute, not since the start', () => {
    const { said, note, advance } = setUp();
    note();
    advance(30_000);
    note(40);
    advance(30_000);
    // 60 s after the first line, the next one is said: the first has left the window, the 40 have not.
    note(2);
    expect(said).toEqual([1, 41]);
    advance(10 * 60_000);
    note();
    expect(said).toEqual([1, 41, 1]);
  });
});

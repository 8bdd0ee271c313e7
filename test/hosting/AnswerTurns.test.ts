import { describe, expect, it } from 'vitest';
import { AnswerTurns } from '../../src/hosting/AnswerTurns.js';

describe('AnswerTurns', () => {
  it('resumes answers that arrive together one per turn, with the rest of the loop running between them', async () => {
    const turns = new AnswerTurns();
    const order: string[] = [];
    // What a caller does once its answer resumes it; anything the loop had queued meanwhile (a gateway
    // event's read, an HTTP request) is stood in for by a setImmediate queued from inside that work.
    const caller = async (name: string) => {
      await turns.next();
      order.push(name);
      setImmediate(() => order.push(`loop after ${name}`));
    };
    await Promise.all([caller('a'), caller('b'), caller('c')]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['a', 'loop after a', 'b', 'loop after b', 'c', 'loop after c']);
  });

  it('lets an answer alone in its turn resume at once, and the next one in that turn wait for the next turn', async () => {
    const turns = new AnswerTurns();
    const order: string[] = [];
    setImmediate(() => order.push('queued before'));
    await turns.next();
    order.push('alone');
    await turns.next();
    order.push('second in the same turn');
    expect(order).toEqual(['alone', 'queued before', 'second in the same turn']);
    // A later turn: alone again, at once.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    setImmediate(() => order.push('queued after'));
    await turns.next();
    order.push('alone later');
    expect(order.slice(-2)).toEqual(['second in the same turn', 'alone later']);
  });
});

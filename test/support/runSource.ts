import { join } from 'node:path';

/** Node arguments that run one of our TypeScript entry points from source, from any working directory. */
export function sourceEntryArgs(relativeEntry: string): string[] {
  return ['--import', import.meta.resolve('tsx'), join(import.meta.dirname, '../..', relativeEntry)];
}

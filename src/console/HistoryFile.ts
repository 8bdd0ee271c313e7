import { chmodSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';

/** Readable and writable by its owner only: the lines are masked, but what was typed is nobody else's. */
const OWNER_ONLY = 0o600;

/**
 * The console's history file (`~/.hostops_console_history`): created readable by its owner only, an older
 * one with wider permissions tightened, and every line kept masked (`mask`: historyLine) — lines an
 * earlier version wrote as typed are masked and the file rewritten once.
 */
export class HistoryFile {
  constructor(
    private readonly path: string,
    private readonly mask: (line: string) => string,
  ) {}

  /** The newest `limit` lines, newest first (readline's order); none when there is no file yet. */
  load(limit: number): string[] {
    let typed: string[];
    try {
      if (!existsSync(this.path)) return [];
      typed = readFileSync(this.path, 'utf8').split('\n').filter(Boolean);
    } catch {
      return [];
    }
    const kept = typed.map(this.mask);
    // Best effort, like every write here: a file HostOps cannot change costs nothing but this.
    try {
      if ((statSync(this.path).mode & 0o077) !== 0) chmodSync(this.path, OWNER_ONLY);
      if (kept.some((line, index) => line !== typed[index])) {
        // Beside it, then over it: a reader never finds the file half written.
        const next = `${this.path}.${process.pid}.tmp`;
        writeFileSync(next, kept.map((line) => `${line}\n`).join(''), { mode: OWNER_ONLY });
        renameSync(next, this.path);
      }
    } catch {}
    return kept.reverse().slice(0, limit);
  }

  /** Adds a line, masked; a file that cannot be written costs the history, not the session. */
  append(line: string): void {
    void appendFile(this.path, `${this.mask(line)}\n`, { mode: OWNER_ONLY }).catch(() => {});
  }
}

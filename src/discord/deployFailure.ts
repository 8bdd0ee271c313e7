// What `npm run deploy-commands` says when registration fails: one line for the person who ran it (as a
// start-up configuration error is), not a log record. Running it again is always safe: the set is written
// whole each time.

/** The failure of a registration as one line, e.g. `cannot reach Discord at https://discord.com/api (…)`. */
export function deployFailure(error: unknown, apiUrl: string): string {
  const failed = error as { status?: unknown; code?: unknown; cause?: { code?: unknown; message?: unknown } };
  const message = error instanceof Error ? error.message : String(error);
  const because = (() => {
    if (failed.status === 401) return 'Discord rejected the bot token (401): check DISCORD_TOKEN';
    if (failed.status === 403 || failed.status === 404)
      return `Discord answered ${failed.status} (${message}): check DISCORD_GUILD_ID, and that the bot was invited to that server with the applications.commands scope`;
    if (typeof failed.status === 'number') return `Discord answered ${failed.status} (${message})`;
    const code = typeof failed.code === 'string' ? failed.code : failed.cause?.code;
    if (typeof code === 'string' || (error instanceof Error && error.name === 'AbortError')) {
      const detail = typeof failed.code === 'string' ? message : String(failed.cause?.message ?? message);
      return `cannot reach Discord at ${apiUrl} (${detail})`;
    }
    return message;
  })();
  return `deploy-commands: command registration failed: ${because}. Run it again once that is fixed: it writes the whole set each time.`;
}

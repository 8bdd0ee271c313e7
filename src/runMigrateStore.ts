// The process of `npm run migrate-store -- --from sqlite:data/hostops.db --to postgres://…` (src/migrate-store.ts):
// copies the change records and the audit trail into an empty PostgreSQL database (src/store/copyStore.ts).
// Without --to, the target is DATABASE_URL from the environment or .env.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { CopyStoreError, copyStore } from './store/copyStore.js';
import { redactDatabaseUrl, secretsOf } from './store/StoreOpenError.js';

const USAGE =
  'usage: npm run migrate-store -- --from sqlite:data/hostops.db [--to postgres://user:password@host:5432/hostops]\n' +
  '       (without --to, the target is DATABASE_URL)\n';

const blankAsUnset = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsUnset, schema.optional());

const POSTGRES = /^postgres(ql)?:\/\//i;

const sqliteSource = z
  .string()
  .regex(/^sqlite:/i, 'must be the SQLite store to copy, sqlite:path/to/file.db')
  .superRefine((url, ctx) => {
    const rest = url.slice('sqlite:'.length);
    if (rest === '' || rest === ':memory:' || rest.startsWith('//')) {
      ctx.addIssue({ code: 'custom', message: 'write the SQLite database as sqlite:path/to/file.db' });
      return;
    }
    const path = resolve(process.cwd(), rest);
    if (!existsSync(path)) ctx.addIssue({ code: 'custom', message: `no SQLite database at ${path}` });
  });

/** The flags, merged into the environment so that one parse reports every problem, each by its name. */
function migrateConfigSchema(flags: { from?: string | undefined; to?: string | undefined }) {
  return z.preprocess(
    (env) => ({ ...(env as Record<string, unknown>), '--from': flags.from, '--to': flags.to }),
    z
      .object({
        '--from': z.preprocess(blankAsUnset, sqliteSource),
        '--to': optional(z.string().regex(POSTGRES, 'must be a postgres:// URL')),
        // Only the fallback for --to: a .env that still says sqlite: is fine when --to is given.
        DATABASE_URL: optional(z.string()),
        LOG_LEVEL: optional(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])).default(
          'info',
        ),
      })
      .superRefine((env, ctx) => {
        if (env['--to'] !== undefined) return;
        if (env.DATABASE_URL === undefined)
          ctx.addIssue({ code: 'custom', path: ['--to'], message: 'is required (or set DATABASE_URL)' });
        else if (!POSTGRES.test(env.DATABASE_URL))
          ctx.addIssue({
            code: 'custom',
            path: ['DATABASE_URL'],
            message: 'must be a postgres:// URL to be the target; or pass --to',
          });
      })
      .transform((env) => ({
        from: env['--from'],
        to: env['--to'] ?? (env.DATABASE_URL as string),
        logLevel: env.LOG_LEVEL,
      })),
  );
}

function readFlags(): { from?: string | undefined; to?: string | undefined } {
  const args = process.argv.slice(2);
  try {
    return parseArgs({
      args,
      options: { from: { type: 'string' }, to: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    // Node's message may quote an argument, and an argument may be a URL with a password.
    let message = error instanceof Error ? error.message : String(error);
    for (const arg of args)
      if (arg.includes('://')) message = message.split(arg).join(redactDatabaseUrl(arg));
    process.stderr.write(`HostOps cannot copy the store: ${message}\n${USAGE}`);
    process.exit(78);
  }
}

/** Copies the store as the flags and environment say; sets the exit code on failure. */
export async function runMigrateStore(): Promise<void> {
  const config = loadConfig(migrateConfigSchema(readFlags()));
  const { logger } = createLogger({
    level: config.logLevel,
    secrets: [...secretsOf(config.from), ...secretsOf(config.to)],
  });
  const from = redactDatabaseUrl(config.from);
  const to = redactDatabaseUrl(config.to);
  const started = performance.now();
  try {
    const copied = await copyStore({ from: config.from, to: config.to });
    logger.info(
      { from, to, ...copied, durationMs: Math.round(performance.now() - started) },
      `store copied: ${copied.changes} changes, ${copied.audit} audit entries, ${copied.watched} watched domains and ${copied.dnsSets} DNS record sets`,
    );
  } catch (error) {
    if (error instanceof CopyStoreError)
      logger.fatal({ from, to }, `cannot copy the store: ${error.message}`);
    else
      logger.fatal(
        { err: error, from, to },
        `cannot copy the store: ${error instanceof Error ? error.message : String(error)}`,
      );
    process.exitCode = 1;
  }
}

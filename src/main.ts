import { loadConfig } from './config.js';
import type { CommandModule } from './discord/CommandModule.js';
import { createLogger } from './logger.js';
import { installProcessGuards } from './processGuards.js';
import { type Bot, startBot } from './startBot.js';

export interface MainOptions {
  /** The command set; commands/index.ts unless given (the process tests add a failing command). */
  commands?: readonly CommandModule[];
}

/**
 * The process around the bot: config → logger → process guards → startBot, then SIGTERM/SIGINT drain
 * and exit 0, a fatal gateway or login problem exits 1, a start that fails exits 1. src/index.ts is
 * this and nothing else, so a test that runs it runs exactly what production runs.
 */
export async function runMain(options: MainOptions = {}): Promise<Bot> {
  const config = loadConfig();
  const { logger, secrets } = createLogger({
    level: config.logLevel,
    secrets: [
      config.hosting.token,
      config.discord.token,
      config.calendar.token ?? '',
      config.http.metricsToken ?? '',
    ],
  });

  function exit(code: number): never {
    logger.flush();
    process.exit(code);
  }

  installProcessGuards(logger, exit);
  const bot = await startBot({
    config,
    logger,
    secrets,
    ...(options.commands ? { commands: options.commands } : {}),
  }).catch((error: unknown) => {
    // e.g. the health port is taken: nothing has started that needs stopping.
    logger.fatal({ err: error }, `cannot start: ${error instanceof Error ? error.message : String(error)}`);
    return exit(1);
  });

  let stopping = false;
  async function shutdown(signal: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, inFlight: bot.router.inFlight, graceMs: config.shutdownGraceMs }, 'shutting down');
    const { drained } = await bot.stop(config.shutdownGraceMs);
    logger.info({ drained }, 'stopped');
    exit(0);
  }
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  void bot.fatal.then((reason) => {
    // One clear line, then out: a container restart loop is easier to see than a reconnect loop.
    logger.fatal({ reason }, `cannot run: ${reason}`);
    exit(1);
  });
  bot.ready.catch(() => {
    // Reported through bot.fatal.
  });
  return bot;
}

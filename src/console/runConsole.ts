import { type Config, ConfigError, readEnvFile } from '../config.js';
import { translator } from '../i18n/Translator.js';
import { createLogger } from '../logger.js';
import { StoreOpenError } from '../store/index.js';
import { consoleActor } from '../text/consoleActor.js';
import { CommandLineError } from './CommandLineError.js';
import { type ConsoleIo, writeLine } from './ConsoleIo.js';
import { ConsoleSession } from './ConsoleSession.js';
import { type ConsoleArgs, EXIT, flagsLostToNpm, parseArgs } from './consoleArgs.js';
import {
  CONSOLE_CHANNEL_ID,
  CONSOLE_ROLE_IDS,
  consoleConfig,
  consoleLocale,
  osUserName,
} from './consoleConfig.js';
import { interactiveSession } from './interactiveSession.js';
import { oneShot } from './oneShot.js';
import { type RenderOptions, supportsColour } from './renderText.js';

/** Entry point: parses the arguments and configuration, then runs one command or a session. */
export async function runConsole(argv: readonly string[], io: ConsoleIo): Promise<number> {
  // LC_ALL, LC_MESSAGES or LANG: the language of everything the console shows (BOT_LOCALE aside).
  const locale = consoleLocale(io.env);
  const t = translator(locale);
  let args: ConsoleArgs;
  try {
    args = parseArgs(argv);
    const lost = flagsLostToNpm(args, io.env);
    if (lost) throw lost;
  } catch (error) {
    const problem = error instanceof CommandLineError ? t.render(error.text) : (error as Error).message;
    writeLine(io.stderr, t('console.failed', { problem }));
    return EXIT.invalid;
  }
  if (args.help) {
    writeLine(io.stdout, t('console.usage'));
    return EXIT.ok;
  }
  // As the bot reads it: the environment wins over .env.
  readEnvFile(io.env);
  let config: Config;
  try {
    config = consoleConfig(io.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    writeLine(
      io.stderr,
      t('console.config_invalid', { problems: error.problems.map((p) => `  ${p}`).join('\n') }),
    );
    return EXIT.config;
  }
  const { logger, secrets } = createLogger({
    level: args.verbose ? 'debug' : 'error',
    secrets: [config.hosting.token],
    destination: io.stderr as unknown as Parameters<typeof createLogger>[0]['destination'],
  });
  const osUser = osUserName(io.env);
  const actor = consoleActor(osUser);
  const render: RenderOptions = {
    colour: !args.noColour && !args.json && supportsColour(io.stdout, io.env),
    t,
    names: {
      users: { [actor.id]: actor.name },
      roles: Object.fromEntries(Object.entries(CONSOLE_ROLE_IDS).map(([tier, id]) => [id, tier])),
      channels: { [CONSOLE_CHANNEL_ID]: 'console' },
    },
  };
  let session: ConsoleSession;
  try {
    session = await ConsoleSession.open({
      config,
      as: args.as,
      roles: args.roles,
      logger,
      secrets,
      osUser,
      locale,
    });
  } catch (error) {
    if (error instanceof StoreOpenError) {
      writeLine(io.stderr, t('console.cannot_start', { problem: error.message }));
      return EXIT.failed;
    }
    throw error;
  }
  try {
    if (args.command !== undefined || args.revert !== undefined) {
      return await oneShot(session, args, io, render);
    }
    return await interactiveSession(session, args, io, render, actor.name);
  } finally {
    await session.close();
    logger.flush();
  }
}

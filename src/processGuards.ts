import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from './logger.js';

export interface HandlerScope {
  interactionId: string;
  correlationId?: string;
  command?: string;
}

/**
 * Marks work done on behalf of one interaction. Node keeps this context for callbacks and promises a
 * handler started, so a stray throw or rejection can be traced to its command instead of killing the bot.
 */
export const handlerScope = new AsyncLocalStorage<HandlerScope>();

/**
 * Errors that escaped a handler are logged with its correlation id and the bot keeps serving; anything
 * else is a fault in the process itself, which exits non-zero so the container restarts it.
 */
export function installProcessGuards(logger: Logger, exit: (code: number) => void): void {
  const onEscape = (kind: 'uncaughtException' | 'unhandledRejection') => (error: unknown) => {
    const scope = handlerScope.getStore();
    if (scope) {
      logger.error(
        {
          err: error,
          kind,
          cid: scope.correlationId,
          command: scope.command,
          interaction: scope.interactionId,
        },
        'error escaped a command handler',
      );
      return;
    }
    logger.fatal({ err: error, kind }, 'unexpected error outside any command; exiting');
    exit(1);
  };
  process.on('uncaughtException', onEscape('uncaughtException'));
  process.on('unhandledRejection', onEscape('unhandledRejection'));
}

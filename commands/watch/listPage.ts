import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
  ButtonStyle,
  ComponentType,
  channelMention,
} from 'discord.js';
import type { ReadScope } from '../../src/access/AccessPolicy.js';
import { readScopeOf } from '../../src/access/readScopeOf.js';
import type { CommandContext, ComponentHandler, ReadAnswer } from '../../src/discord/CommandModule.js';
import { customId } from '../../src/discord/customId.js';
import { figure, message } from '../../src/i18n/Translator.js';
import { Colour } from '../../src/replies/colours.js';
import { UserError } from '../../src/replies/UserError.js';
import type { WatchedDomain } from '../../src/store/watchRecords.js';
import { cutText } from '../../src/text/cutText.js';
import type { DomainWatch } from '../../src/watch/DomainWatch.js';
import { renderWatchLine } from '../../src/watch/renderWatchLines.js';
import { type WatchListData, watchedDomainData } from '../../src/watch/watchData.js';

// /watch list: a page of the watched domains, soonest expiry first, with its paging buttons.

export const WATCH_PAGE_SIZE = 10;

/** The watch, or the ephemeral answer that it is off. */
export function watchOf(context: Pick<CommandContext, 'watch'>): DomainWatch {
  if (!context.watch) throw new UserError(message('watch.off'));
  return context.watch;
}

function pageButton(offset: number, label: string, disabled: boolean): APIButtonComponent {
  return {
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    custom_id: customId('watchlist', String(offset)),
    label,
    disabled,
  };
}

/** Watched domains read per store query when a reader's scope filters the list. */
const SCOPED_READ = 500;

/**
 * A page of the watch list as the reader may see it: the store's paging for a reader of everything; for a
 * narrower scope the whole list in the store's order, filtered, then paged (the store knows no patterns).
 */
async function readPage(
  store: CommandContext['store'],
  scope: ReadScope,
  offset: number,
): Promise<{ rows: WatchedDomain[]; total: number }> {
  if (scope.everything) return store.watch.list({ limit: WATCH_PAGE_SIZE, offset });
  const readable: WatchedDomain[] = [];
  for (let at = 0; ; at += SCOPED_READ) {
    const { rows } = await store.watch.list({ limit: SCOPED_READ, offset: at });
    readable.push(...rows.filter((r) => scope.covers({ kind: 'domain', ascii: r.domain })));
    if (rows.length < SCOPED_READ) break;
  }
  return { rows: readable.slice(offset, offset + WATCH_PAGE_SIZE), total: readable.length };
}

/** In the channel (and its buttons): `context.t` is BOT_LOCALE's. Only what the reader may see is listed. */
export async function listPage(
  context: Pick<CommandContext, 'watch' | 'store' | 't' | 'gate'> & {
    interaction: Parameters<typeof readScopeOf>[0]['interaction'];
  },
  requested: number,
): Promise<ReadAnswer> {
  const { t } = context;
  const watch = watchOf(context);
  const scope = await readScopeOf(context);
  let offset = Math.max(0, requested);
  let result = await readPage(context.store, scope, offset);
  // Domains removed since the button was drawn: show the last page there still is.
  if (result.rows.length === 0 && offset > 0 && result.total > 0) {
    offset = Math.floor((result.total - 1) / WATCH_PAGE_SIZE) * WATCH_PAGE_SIZE;
    result = await readPage(context.store, scope, offset);
  }
  if (result.rows.length === 0) {
    return {
      embeds: [
        {
          title: t('watch.list.title'),
          color: Colour.neutral,
          description: t('watch.list.empty'),
        },
      ],
      components: [],
      data: { total: 0, offset: 0, domains: [] } satisfies WatchListData,
    };
  }
  const last = offset + result.rows.length;
  const embed: APIEmbed = {
    title: t('watch.list.title'),
    color: Colour.info,
    description: cutText(
      `${t('watch.list.intro', { channel: channelMention(watch.settings.channelId) })}\n\n${result.rows
        .map((row) => renderWatchLine(watch, row, t))
        .join('\n')}`,
      4096,
    ),
    footer: {
      text: t('watch.list.footer', {
        first: figure(offset + 1),
        last: figure(last),
        total: figure(result.total),
      }),
    },
  };
  const row: APIActionRowComponent<APIButtonComponent> = {
    type: ComponentType.ActionRow,
    components: [
      pageButton(Math.max(0, offset - WATCH_PAGE_SIZE), t('watch.list.previous'), offset === 0),
      pageButton(offset + WATCH_PAGE_SIZE, t('watch.list.next'), last >= result.total),
    ],
  };
  const data: WatchListData = {
    total: result.total,
    offset,
    domains: result.rows.map((r) => watchedDomainData(r, watch.daysLeft(r.expiryDate))),
  };
  return { embeds: [embed], components: [row], data };
}

export const paging: ComponentHandler = {
  tier: 'viewer',
  update: async (context) => {
    const offset = /^\d{1,9}$/.test(context.args) ? Number(context.args) : undefined;
    if (offset === undefined) throw new UserError(message('watch.list.old_button'));
    return listPage(context, offset);
  },
};

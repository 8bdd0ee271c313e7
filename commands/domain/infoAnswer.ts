import {
  type APIActionRowComponent,
  type APIButtonComponent,
  ButtonStyle,
  ComponentType,
  TimestampStyles,
  time,
} from 'discord.js';
import { DateTime } from 'luxon';
import type { CommandContext, ComponentHandler, ReadAnswer } from '../../src/discord/CommandModule.js';
import { customId } from '../../src/discord/customId.js';
import { daysUntil } from '../../src/discord/render/daysUntil.js';
import { renderDomainInfo } from '../../src/discord/render/renderDomainInfo.js';
import { figure, message, type Translator } from '../../src/i18n/Translator.js';
import { registryData } from '../../src/rdap/registryData.js';
import { domainInfoData } from '../../src/replies/answerData.js';
import { UserError } from '../../src/replies/UserError.js';
import { type ParsedDomain, parseDomain } from '../../src/validation/parseDomain.js';
import { registryFields, withRegistry } from './registryBeside.js';

/** An operator's re-read of one domain at its registry: at most once per domain in this window (the store decides). */
export const REASK_WINDOW_MS = 5 * 60_000;
const REASK = 'reask';
/** Discord's limit of a custom id: a longer domain gets no button. */
const MAX_CUSTOM_ID = 100;

type InfoContext = Pick<
  CommandContext,
  'hosting' | 'call' | 'now' | 'config' | 't' | 'registry' | 'watch' | 'store' | 'logger'
>;

function reaskRow(name: ParsedDomain, t: Translator): APIActionRowComponent<APIButtonComponent>[] {
  const id = customId(REASK, name.ascii);
  if (id.length > MAX_CUSTOM_ID) return [];
  return [
    {
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.Button,
          style: ButtonStyle.Secondary,
          custom_id: id,
          label: t('rdap.reask.button'),
        },
      ],
    },
  ];
}

/**
 * /domain info's answer: the provider's data at once, the registry's word beside it (an edit follows when
 * it is asked), and — with the registry check on — the operator's button to ask the registry now. `reask`:
 * asked now whatever the age of the stored answer.
 */
export async function infoAnswer(
  context: InfoContext,
  name: ParsedDomain,
  reask = false,
): Promise<ReadAnswer> {
  const info = await context.hosting.getDomainInfo(name.ascii, context.call);
  const today = DateTime.fromJSDate(context.now(), { zone: context.config.hosting.timeZone }).startOf('day');
  const days = info.expiryDate ? daysUntil(info.expiryDate, today) : null;
  const providerExpiry = info.expiryDate?.toISODate() ?? null;
  const zone = context.config.hosting.timeZone;
  const entry = { domain: name.ascii, unicode: name.unicode, providerExpiry };
  const components = context.registry ? reaskRow(name, context.t) : [];
  return withRegistry(
    context,
    entry,
    (registry) => {
      const embed = renderDomainInfo(name, info, today, context.t);
      if (registry) embed.fields?.push(...registryFields(registry, providerExpiry, zone, context.t));
      return {
        embeds: [embed],
        ...(components.length > 0 ? { components } : {}),
        data: {
          ...domainInfoData(name, info, days),
          ...(registry ? { registry: registryData(registry, zone) } : {}),
        },
      };
    },
    reask,
  );
}

/**
 * The button: an operator has the domain re-read at its registry now, within the server's limits, once per
 * REASK_WINDOW_MS whoever presses it on whichever replica (a conditional upsert in the store); a press
 * within the window is refused, saying when it may be asked again.
 */
export const reask: ComponentHandler = {
  tier: 'operator',
  update: async (context) => {
    const name = parseDomain(context.args);
    if (!context.registry) throw new UserError(message('rdap.reask.off'));
    const claim = await context.store.registry.claimReask(name.ascii, context.now(), REASK_WINDOW_MS);
    if (!claim.claimed) {
      const again = new Date(claim.at.getTime() + REASK_WINDOW_MS);
      throw new UserError(
        message('rdap.reask.too_soon', {
          domain: name.unicode,
          asked: time(claim.at, TimestampStyles.RelativeTime),
          again: time(again, TimestampStyles.ShortTime),
          minutes: figure(REASK_WINDOW_MS / 60_000),
        }),
      );
    }
    return infoAnswer(context, name, true);
  },
};

// How the SIGKILL cells open a change in a spawned bot: a `/domain dns` prompt, or a `/domain register`
// confirmed and put up for approval (APPROVAL_REQUIRED), each with how to press its button.
import type { FakeDiscord } from '../../support/FakeDiscord.js';
import { callbackType, confirmIdOf, nth, PROCESS_ROLES, until } from '../../support/spawnBot.js';

export const dns = (domain: string) => ({
  commandName: 'domain',
  subcommand: 'dns',
  options: { domain, records: 'www 3600 A 203.0.113.7' },
});

/** Opens a prompt; returns its change id and how to press Confirm. */
export async function prompt(discord: FakeDiscord, domain: string) {
  const roles = [PROCESS_ROLES.operator];
  const command = discord.dispatchInteraction({ ...dns(domain), roles });
  // Deferred first (the prompt reads the domain's latest set), then the prompt as an edit.
  const first = await nth(discord, command, 0, 10_000);
  const shown = callbackType(first) === 5 ? await nth(discord, command, 1, 10_000) : first;
  const customId = confirmIdOf(shown);
  const message = discord.originalMessage(command);
  if (!message) throw new Error('no prompt message');
  return {
    id: customId.split(':')[2] ?? '',
    confirm: () => discord.dispatchComponent({ customId, message: { id: message.id }, roles }),
  };
}

/** Opens a /domain register, confirms it, and returns how to press its approval request's Approve. */
export async function requestApproval(
  discord: FakeDiscord,
  domain: string,
  stateOf: (id: string) => Promise<string | undefined> | string | undefined,
) {
  const roles = [PROCESS_ROLES.admin];
  const command = discord.dispatchInteraction({
    commandName: 'domain',
    subcommand: 'register',
    options: { domain, ns1: 'ns1.example.net', ns2: 'ns2.example.net' },
    roles,
  });
  const first = await nth(discord, command, 0, 10_000);
  const shown = callbackType(first) === 5 ? await nth(discord, command, 1, 10_000) : first;
  const customId = confirmIdOf(shown);
  const id = customId.split(':')[2] ?? '';
  const message = discord.originalMessage(command);
  if (!message) throw new Error('no prompt message');
  discord.dispatchComponent({ customId, message: { id: message.id }, roles });
  const posted = () =>
    discord
      .channelMessages()
      .find(
        (m) =>
          /^Approval needed/.test(m.embeds[0]?.title ?? '') &&
          JSON.stringify(m.components ?? []).includes(`:${id}`),
      );
  const request = await until(() => posted(), 'the approval request', 10_000);
  await until(
    async () => ((await stateOf(id)) === 'awaiting_approval' ? true : undefined),
    'the change awaiting approval',
    10_000,
  );
  const approveId = JSON.stringify(request.components).match(/"(hostops:approve:[^"]+)"/)?.[1] ?? '';
  return {
    id,
    approve: () =>
      discord.dispatchComponent({
        customId: approveId,
        message: { id: request.id },
        userId: '900000000000000044',
        roles,
      }),
  };
}

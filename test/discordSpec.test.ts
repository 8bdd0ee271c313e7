import { ComponentType, InteractionResponseType, TextInputStyle } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { discordSpecSource, specErrors } from './support/discordSpec.js';
import { FakeDiscord } from './support/FakeDiscord.js';

const CALLBACK = '/interactions/1/token/callback';

const labelled = (component: Record<string, unknown>, label = 'Domain') => ({
  type: InteractionResponseType.Modal,
  data: {
    custom_id: 'hostops:modal:x',
    title: 'Register a domain',
    components: [{ type: ComponentType.Label, label, component }],
  },
});
const text = { type: ComponentType.TextInput, custom_id: 'domain', style: TextInputStyle.Short };

describe("Discord's OpenAPI description (the fixture)", () => {
  it('names the commit of discord/discord-api-spec it was taken from', () => {
    expect(discordSpecSource()).toMatchObject({
      repository: 'https://github.com/discord/discord-api-spec',
      file: 'specs/openapi.json',
      commit: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
  });

  it('takes a labelled modal, a radio group in a Label, and a message with buttons', () => {
    expect(specErrors('POST', CALLBACK, labelled(text))).toEqual([]);
    const radio = {
      type: ComponentType.RadioGroup,
      custom_id: 'bots',
      options: [
        { label: '1', value: '1' },
        { label: '2', value: '2', default: true },
      ],
    };
    expect(specErrors('POST', CALLBACK, labelled(radio, 'Bots'))).toEqual([]);
    const message = {
      content: 'x',
      components: [
        {
          type: ComponentType.ActionRow,
          components: [{ type: ComponentType.Button, style: 2, label: 'Edit', custom_id: 'hostops:edit:x' }],
        },
      ],
    };
    expect(specErrors('POST', '/webhooks/1/token', message)).toEqual([]);
    expect(specErrors('POST', CALLBACK, { type: 4, data: { ...message, flags: 64 } })).toEqual([]);
  });

  it('refuses bodies Discord would refuse', () => {
    // A text input of an unknown style, a label over 45 characters, a radio group of one option.
    expect(specErrors('POST', CALLBACK, labelled({ ...text, style: 3 }))).not.toEqual([]);
    expect(specErrors('POST', CALLBACK, labelled(text, 'x'.repeat(46)))).not.toEqual([]);
    const lone = { type: ComponentType.RadioGroup, custom_id: 'bots', options: [{ label: '1', value: '1' }] };
    expect(specErrors('POST', CALLBACK, labelled(lone))).not.toEqual([]);
    // A button in a modal; an embed field whose value is not text.
    const button = { type: ComponentType.Button, style: 1, label: 'x', custom_id: 'y' };
    expect(specErrors('POST', CALLBACK, labelled(button))).not.toEqual([]);
    const embed = { embeds: [{ title: 'x', fields: [{ name: 'a', value: 5 }] }] };
    expect(specErrors('POST', '/channels/1/messages', embed)).toEqual([
      '/embeds/0/fields/0/value: must be string',
    ]);
    expect(specErrors('GET', '/channels/1/messages', {})).toBeUndefined();
  });
});

describe('FakeDiscord checks every body against the description', () => {
  let fake: FakeDiscord | undefined;
  afterEach(async () => {
    await fake?.stop();
  });

  it('refuses a body that breaks it with 400 50035, as Discord does, and keeps it', async () => {
    fake = await FakeDiscord.start();
    const post = (body: unknown) =>
      fetch(`${fake?.apiUrl}/v10/channels/${fake?.channelId}/messages`, {
        method: 'POST',
        headers: { authorization: `Bot ${fake?.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const refused = await post({ embeds: [{ title: 'x', fields: [{ name: 'a', value: 5 }] }] });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { code: number }).code).toBe(50035);
    expect(fake.specRefusals.map((r) => r.errors)).toEqual([['/embeds/0/fields/0/value: must be string']]);
    expect(fake.channelMessages()).toEqual([]);
    expect((await post({ content: 'fine' })).status).toBe(200);
  });
});

// Reference "naive": what a competent person writes in an afternoon from the discord.js guide. On
// /domain info it awaits a plain fetch of the hosting API, then replies with an embed. No defer, no
// validation, no role gates, no timeout, no retries.
import { Client, Events, GatewayIntentBits } from 'discord.js';

const client = new Client({
  intents: [GatewayIntentBits.Guilds],
  rest: { api: process.env.DISCORD_API_URL },
});

client.on(Events.InteractionCreate, async (interaction) => {
  if (!interaction.isChatInputCommand()) return;
  if (interaction.commandName !== 'domain' || interaction.options.getSubcommand() !== 'info') return;
  try {
    const domain = interaction.options.getString('domain');
    const response = await fetch(`${process.env.HOSTING_API_URL}/domain/info/${domain}`, {
      headers: { authorization: `Bearer ${process.env.HOSTING_API_TOKEN}` },
    });
    const info = await response.json();
    await interaction.reply({
      embeds: [
        {
          title: domain,
          fields: [
            { name: 'Expires', value: String(info.expirydate) },
            { name: 'Active', value: String(info.active), inline: true },
            { name: 'Expired', value: String(info.expired), inline: true },
            { name: 'Transferred away', value: String(info.transferredAway), inline: true },
          ],
        },
      ],
    });
  } catch (error) {
    console.error(error);
  }
});

client.login(process.env.DISCORD_TOKEN);
// A clean exit on SIGTERM, so `--cpu-prof` can write its profile when the bench stops the process.
process.once('SIGTERM', () => process.exit(0));

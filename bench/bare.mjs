// Reference "bare": the smallest discord.js bot. Guilds intent, default caches, and every slash command and
// button press is answered at once with a fixed reply; no API call. The practical floor for this library.
import { Client, Events, GatewayIntentBits } from 'discord.js';

const client = new Client({
  intents: [GatewayIntentBits.Guilds],
  rest: { api: process.env.DISCORD_API_URL },
});

client.on(Events.InteractionCreate, async (interaction) => {
  // Commands and button presses alike (the long-run bench presses Confirm); autocomplete gets nothing.
  if (!interaction.isRepliable()) return;
  try {
    await interaction.reply('ok');
  } catch (error) {
    console.error(error);
  }
});

client.login(process.env.DISCORD_TOKEN);
// A clean exit on SIGTERM, so `--cpu-prof` can write its profile when the bench stops the process.
process.once('SIGTERM', () => process.exit(0));

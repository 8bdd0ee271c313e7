import {
  type APIApplicationCommandOption,
  ApplicationCommandOptionType,
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
} from 'discord.js';
import { commandLabel } from '../text/commandLabel.js';
import type { AnyChangeSpec, CommandModule, ComponentHandler, Subcommand } from './CommandModule.js';

/**
 * The command list as the router looks things up: each subcommand by its label (`/domain info`), its
 * declared options, the changes among them, and the buttons of the commands' own answers by action.
 */
export class CommandTable {
  readonly #subcommands = new Map<string, Subcommand>();
  readonly #options = new Map<string, readonly APIApplicationCommandOption[]>();
  readonly #components = new Map<string, ComponentHandler>();
  /** The change subcommands, by label. */
  readonly specs = new Map<string, AnyChangeSpec>();

  constructor(commands: readonly CommandModule[]) {
    for (const module of commands) {
      for (const [action, handler] of Object.entries(module.components ?? {})) {
        this.#components.set(action, handler);
      }
      for (const [name, subcommand] of Object.entries(module.subcommands)) {
        const label = commandLabel(module.definition.name, name);
        this.#subcommands.set(label, subcommand);
        this.#options.set(label, optionsOf(module.definition, name));
        if (subcommand.kind === 'change') this.specs.set(label, subcommand);
      }
    }
  }

  subcommand(label: string): Subcommand | undefined {
    return this.#subcommands.get(label);
  }

  /** The options the subcommand's definition declares, with their limits. */
  options(label: string): readonly APIApplicationCommandOption[] {
    return this.#options.get(label) ?? [];
  }

  component(action: string): ComponentHandler | undefined {
    return this.#components.get(action);
  }
}

/** The whole path as typed: `/domain admin info` is not `/domain info`. */
export function commandPath(interaction: ChatInputCommandInteraction | AutocompleteInteraction): string {
  const parts = [
    interaction.commandName,
    interaction.options.getSubcommandGroup(false),
    interaction.options.getSubcommand(false),
  ].filter((part): part is string => Boolean(part));
  return commandLabel(parts.join(' '));
}

/** The options of one subcommand (or of a command without subcommands, key ''). */
function optionsOf(
  definition: CommandModule['definition'],
  subcommand: string,
): readonly APIApplicationCommandOption[] {
  if (subcommand === '') return definition.options ?? [];
  const found = definition.options?.find(
    (option) => option.type === ApplicationCommandOptionType.Subcommand && option.name === subcommand,
  );
  return found && 'options' in found ? (found.options ?? []) : [];
}

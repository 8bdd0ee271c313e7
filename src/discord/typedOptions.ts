import type {
  ApplicationCommandOptionType,
  ChatInputCommandInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';

// A subcommand's options as its `as const` definition declares them, so that a handler reading an option
// that is not declared, or of another type, fails the typecheck (yuudachi's `Command<typeof definition>`).

/** The options a definition declares, as its `as const` JSON has them. */
export type OptionList = readonly {
  readonly name: string;
  readonly type: ApplicationCommandOptionType;
  readonly required?: boolean;
}[];

/** The options of subcommand `K` of definition `D` (of the command itself for `''`); none: `[]`. */
export type OptionsOf<
  D extends RESTPostAPIChatInputApplicationCommandsJSONBody,
  K extends string,
> = AsOptionList<
  K extends ''
    ? D['options']
    : Extract<
          NonNullable<D['options']>[number],
          { type: ApplicationCommandOptionType.Subcommand; name: K }
        > extends {
          options?: infer O;
        }
      ? O
      : never
>;
type AsOptionList<O> = O extends OptionList ? O : readonly [];

type Names<O extends OptionList, T extends ApplicationCommandOptionType> = Extract<
  O[number],
  { type: T }
>['name'];
type RequiredNames<O extends OptionList, T extends ApplicationCommandOptionType> = Extract<
  O[number],
  { type: T; required: true }
>['name'];

/** The names a subcommand's options may be read by, per type; required ones apart. */
export interface OptionNames {
  any: string;
  string: string;
  requiredString: string;
  integer: string;
  requiredInteger: string;
  boolean: string;
  requiredBoolean: string;
  attachment: string;
  requiredAttachment: string;
}

/** The names of a definition's options (`OptionsOf`), per type. */
export type NamesOf<O extends OptionList> = {
  any: Names<O, ApplicationCommandOptionType>;
  string: Names<O, ApplicationCommandOptionType.String>;
  requiredString: RequiredNames<O, ApplicationCommandOptionType.String>;
  integer: Names<O, ApplicationCommandOptionType.Integer>;
  requiredInteger: RequiredNames<O, ApplicationCommandOptionType.Integer>;
  boolean: Names<O, ApplicationCommandOptionType.Boolean>;
  requiredBoolean: RequiredNames<O, ApplicationCommandOptionType.Boolean>;
  attachment: Names<O, ApplicationCommandOptionType.Attachment>;
  requiredAttachment: RequiredNames<O, ApplicationCommandOptionType.Attachment>;
};

type Resolver = ChatInputCommandInteraction['options'];

/**
 * An interaction's options as one subcommand's definition declares them: a name that is not declared,
 * of another type, or read as required when it is optional fails the typecheck.
 */
export interface TypedOptions<N extends OptionNames = OptionNames> {
  get(name: N['any']): ReturnType<Resolver['get']>;
  getString(name: N['requiredString'], required: true): string;
  getString(name: N['string']): string | null;
  getInteger(name: N['requiredInteger'], required: true): number;
  getInteger(name: N['integer']): number | null;
  getBoolean(name: N['requiredBoolean'], required: true): boolean;
  getBoolean(name: N['boolean']): boolean | null;
  getAttachment(
    name: N['requiredAttachment'],
    required: true,
  ): NonNullable<ReturnType<Resolver['getAttachment']>>;
  getAttachment(name: N['attachment']): ReturnType<Resolver['getAttachment']>;
}

/** The command's interaction, its options typed by the subcommand's definition. */
export type CommandInteraction<N extends OptionNames = OptionNames> = Omit<
  ChatInputCommandInteraction<'cached' | 'raw'>,
  'options'
> & { options: TypedOptions<N> };

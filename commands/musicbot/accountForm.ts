import { MAX_FORM_CHOICES } from '../../src/configValues.js';
import type { FormField, ModalRequest } from '../../src/discord/CommandModule.js';
import { validated } from '../../src/discord/options.js';
import type { MusicBotUser } from '../../src/hosting/operations.js';
import type { Translator } from '../../src/i18n/Translator.js';
import { parseEmail } from '../../src/validation/parseEmail.js';
import { formatBytes } from '../../src/validation/parseStorageSize.js';
import { parseUsername } from '../../src/validation/parseUsername.js';

// /musicbot create's onboarding form: what the four options ask for, as one form.

export type Account = Pick<MusicBotUser, 'username' | 'email' | 'storage' | 'bots'>;

/** The options' limits, which the definition and the form share. */
export const ACCOUNT_LIMITS = { username: 64, email: 254, storage: 32, bots: 1000 } as const;

/** The options given on the command (each already valid), to fill the form in with. */
export type GivenAccount = Partial<Account>;

/**
 * The choices offered, in order; a value given on the command that is not among them is offered too (as
 * long as a choice has room), so what was given is never silently dropped.
 */
function choices(offered: readonly number[], given: number | undefined, label: (value: number) => string) {
  const values =
    given !== undefined && !offered.includes(given) && offered.length < MAX_FORM_CHOICES
      ? [...offered, given].sort((a, b) => a - b)
      : offered;
  return values.map((value) => ({ label: label(value), value: String(value) }));
}

/** The form `/musicbot create` opens when an option is missing: plans and bot counts the operator offers. */
export function accountForm(
  given: GivenAccount,
  { storagePlans, maxBots }: { storagePlans: readonly number[]; maxBots: number },
  t: Translator,
): ModalRequest {
  const text = (id: 'username' | 'email', description: string): FormField => ({
    kind: 'text',
    id,
    label: t(`musicbot.field.${id}`),
    description,
    maxLength: ACCOUNT_LIMITS[id],
    ...(given[id] === undefined ? {} : { value: given[id] }),
  });
  const counts = Array.from({ length: maxBots }, (_, index) => index + 1);
  return {
    modal: {
      title: t('musicbot.form.title'),
      fields: [
        text('username', t('musicbot.form.username')),
        text('email', t('musicbot.form.email')),
        {
          kind: 'choice',
          id: 'storage',
          label: t('musicbot.field.storage'),
          description: t('musicbot.form.storage'),
          choices: choices(storagePlans, given.storage, (bytes) => formatBytes(bytes, t.locale)),
          ...(given.storage === undefined ? {} : { value: String(given.storage) }),
        },
        {
          kind: 'choice',
          id: 'bots',
          label: t('musicbot.field.bots'),
          description: t('musicbot.form.bots'),
          choices: choices(counts, given.bots, String),
          ...(given.bots === undefined ? {} : { value: String(given.bots) }),
        },
      ],
    },
    state: {},
  };
}

/** The account a submitted form asks for: the same rules as the options (the choices are checked as offered). */
export function accountFromForm(values: Record<string, string>): Account {
  return {
    username: validated('username', values.username ?? '', parseUsername),
    email: validated('email', values.email ?? '', parseEmail),
    storage: Number(values.storage),
    bots: Number(values.bots),
  };
}

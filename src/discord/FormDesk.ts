import { randomBytes } from 'node:crypto';
import {
  type ButtonInteraction,
  ButtonStyle,
  type ChatInputCommandInteraction,
  type ModalSubmitInteraction,
} from 'discord.js';
import type { Config } from '../config.js';
import type { AddressResolver } from '../dns/AddressResolver.js';
import type { HostingClient } from '../hosting/HostingClient.js';
import { pickLocale } from '../i18n/locales.js';
import { translator } from '../i18n/Translator.js';
import type { Logger } from '../logger.js';
import { InvalidOptionError, restarting } from '../replies/UserError.js';
import type { OpenForm, Store } from '../store/index.js';
import { type Answers, ephemeral, type Invocation } from './Answers.js';
import type { AnyChangeSpec, ModalRequest } from './CommandModule.js';
import type { ChangeFlow } from './changes/ChangeFlow.js';
import { customId, FORM_ACTIONS } from './customId.js';
import { checkChoices, formModal, formValues } from './formModal.js';
import { newInvocation } from './newInvocation.js';
import { actionButton, actionRow } from './render/actionButton.js';

// Interaction tokens outlive this by a minute; a modal left open longer is simply forgotten.
const MODAL_TTL_MS = 14 * 60_000;

export interface FormDeskDeps {
  store: Store;
  hosting: HostingClient;
  config: Config;
  resolver: AddressResolver;
  logger: Logger;
  specs: ReadonlyMap<string, AnyChangeSpec>;
  answers: Answers;
  changes: ChangeFlow;
}

/**
 * What the store keeps of an open form: the command's own state, the form as it was drawn (in its
 * owner's language), and what was typed in it before an invalid submit.
 */
interface KeptForm {
  state: Record<string, unknown>;
  modal: ModalRequest['modal'];
  typed?: Record<string, string>;
}

function kept(form: OpenForm): KeptForm | undefined {
  const value = form.state as Partial<KeptForm>;
  return value.modal && value.state ? (value as KeptForm) : undefined;
}

/**
 * The forms a change asks for (the `/domain dns` editor, `/musicbot create` and `/domain register` without
 * options): what the submit needs is kept in the store, so whichever replica receives the submit turns it
 * into the change's prompt, once. An invalid submit costs one field: the form is kept with what was typed,
 * and its Edit button opens it again, filled in, while it is kept.
 */
export class FormDesk {
  constructor(private readonly deps: FormDeskDeps) {}

  async open(
    interaction: ChatInputCommandInteraction,
    invocation: Invocation,
    { modal, state }: ModalRequest,
  ): Promise<void> {
    const nonce = randomBytes(12).toString('base64url');
    // Drawn before it is kept: a form Discord could not draw is a bug, and nothing is left behind.
    const body = formModal(customId(FORM_ACTIONS.submit, nonce), modal);
    await this.#keep(nonce, invocation.userId, invocation.label, invocation.correlationId, { state, modal });
    await this.deps.answers.acknowledge(invocation, interaction.showModal(body));
  }

  /** Edit, under the answer to an invalid submit: the same form again, with everything typed in it. */
  async edit(interaction: ButtonInteraction, nonce: string): Promise<void> {
    const open = await this.deps.store.forms.peek(nonce, interaction.user.id);
    const form = open && kept(open);
    if (!form) {
      await this.#closed(interaction);
      return;
    }
    await interaction.showModal(formModal(customId(FORM_ACTIONS.submit, nonce), form.modal, form.typed));
  }

  /** A form's submit, on whichever replica received it: the store hands the form to exactly one. */
  async submitted(interaction: ModalSubmitInteraction, nonce: string): Promise<void> {
    const { store, specs, answers, changes, hosting, config, resolver, logger } = this.deps;
    const open = await store.forms.take(nonce, interaction.user.id);
    const spec = open && specs.get(open.command);
    const form = open && kept(open);
    if (!open || !form || !spec?.submitForm) {
      await this.#closed(interaction);
      return;
    }
    const invocation = newInvocation(logger, interaction, open.command, true, open.correlationId);
    const t = translator(invocation.locale);
    const values = formValues(interaction.fields, form.modal.fields);
    try {
      if (changes.draining) throw restarting();
      checkChoices(form.modal.fields, values);
      const made = spec.submitForm(form.state, values, {
        hosting,
        config,
        resolver,
        store,
        logger: invocation.logger,
        t,
      });
      await changes.prompt(interaction, invocation, spec, made);
    } catch (error) {
      const field =
        error instanceof InvalidOptionError && form.modal.fields.find((f) => f.id === error.option);
      if (!field) {
        await answers.fail(interaction, invocation, error);
        return;
      }
      // Nothing was sent: the form is kept with what was typed, for Edit.
      await this.#keep(nonce, open.ownerId, open.command, open.correlationId, { ...form, typed: values });
      answers.log(invocation, error, false);
      const content = t('forms.invalid_field', {
        field: field.label,
        problem: t.render(error.problem),
        expected: t.render(error.expected),
      });
      const edit = actionButton(FORM_ACTIONS.edit, nonce, t('forms.edit'), ButtonStyle.Primary);
      await answers.safely(invocation, () =>
        answers.acknowledge(
          invocation,
          interaction.reply(ephemeral({ content, components: [actionRow(edit)] })),
        ),
      );
      await answers.finish(invocation, 'invalid', error.option);
    }
  }

  #keep(id: string, ownerId: string, command: string, correlationId: string, form: KeptForm): Promise<void> {
    return this.deps.store.forms.open({
      id,
      ownerId,
      command,
      state: form as unknown as Record<string, unknown>,
      correlationId,
      openForMs: MODAL_TTL_MS,
    });
  }

  async #closed(interaction: ModalSubmitInteraction | ButtonInteraction): Promise<void> {
    const t = translator(pickLocale(interaction.locale));
    await interaction.reply(ephemeral({ content: t('errors.form_closed') }));
  }
}

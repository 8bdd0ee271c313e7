import { randomBytes } from 'node:crypto';
import {
  type ChatInputCommandInteraction,
  ComponentType,
  type ModalSubmitInteraction,
  TextInputStyle,
} from 'discord.js';
import type { Config } from '../config.js';
import type { AddressResolver } from '../dns/AddressResolver.js';
import type { HostingClient } from '../hosting/HostingClient.js';
import { pickLocale } from '../i18n/locales.js';
import { translator } from '../i18n/Translator.js';
import type { Logger } from '../logger.js';
import { restarting } from '../replies/UserError.js';
import type { Store } from '../store/index.js';
import { type Answers, ephemeral, type Invocation } from './Answers.js';
import type { AnyChangeSpec, ModalRequest } from './CommandModule.js';
import type { ChangeFlow } from './changes/ChangeFlow.js';
import { customId } from './customId.js';
import { newInvocation } from './newInvocation.js';

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
 * The forms a change asks for (the `/domain dns` editor): what the submit needs is kept in the store,
 * so whichever replica receives the submit turns it into the change's prompt, once.
 */
export class FormDesk {
  constructor(private readonly deps: FormDeskDeps) {}

  async open(
    interaction: ChatInputCommandInteraction,
    invocation: Invocation,
    { modal: request, state }: ModalRequest,
  ): Promise<void> {
    const nonce = randomBytes(12).toString('base64url');
    await this.deps.store.forms.open({
      id: nonce,
      ownerId: invocation.userId,
      command: invocation.label,
      state,
      correlationId: invocation.correlationId,
      openForMs: MODAL_TTL_MS,
    });
    await this.deps.answers.acknowledge(
      invocation,
      interaction.showModal({
        title: request.title,
        custom_id: customId('modal', nonce),
        components: [
          {
            type: ComponentType.ActionRow,
            components: [
              {
                type: ComponentType.TextInput,
                custom_id: 'text',
                label: request.input.label,
                style: TextInputStyle.Paragraph,
                required: true,
                max_length: request.input.maxLength ?? 4000,
                ...(request.input.placeholder ? { placeholder: request.input.placeholder } : {}),
              },
            ],
          },
        ],
      }),
    );
  }

  /** A form's submit, on whichever replica received it: the store hands the form to exactly one. */
  async submitted(interaction: ModalSubmitInteraction, nonce: string): Promise<void> {
    const { store, specs, answers, changes, hosting, config, resolver, logger } = this.deps;
    const form = await store.forms.take(nonce, interaction.user.id);
    const spec = form && specs.get(form.command);
    if (!form || !spec?.submitForm) {
      const t = translator(pickLocale(interaction.locale));
      await interaction.reply(ephemeral({ content: t('errors.form_closed') }));
      return;
    }
    const invocation = newInvocation(logger, interaction, form.command, true, form.correlationId);
    try {
      if (changes.draining) throw restarting();
      const made = spec.submitForm(form.state, interaction.fields.getTextInputValue('text'), {
        hosting,
        config,
        resolver,
        store,
        logger: invocation.logger,
        t: translator(invocation.locale),
      });
      await changes.prompt(interaction, invocation, spec, made);
    } catch (error) {
      await answers.fail(interaction, invocation, error);
    }
  }
}

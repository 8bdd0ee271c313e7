import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type ButtonStyle,
  ComponentType,
} from 'discord.js';
import { type ChangeButton, customId, type FormAction } from '../customId.js';

export type ActionStyle =
  | ButtonStyle.Primary
  | ButtonStyle.Secondary
  | ButtonStyle.Success
  | ButtonStyle.Danger;

/**
 * A change's button (or a form's Edit): custom id `hostops:<action>:<id>`, which the router hands to the
 * change flow (or the forms).
 */
export function actionButton(
  action: ChangeButton | FormAction,
  id: string,
  label: string,
  style: ActionStyle,
  disabled = false,
) {
  return {
    type: ComponentType.Button,
    style,
    label,
    custom_id: customId(action, id),
    disabled,
  } as const satisfies APIButtonComponent;
}

export function actionRow(...components: APIButtonComponent[]): APIActionRowComponent<APIButtonComponent> {
  return { type: ComponentType.ActionRow, components };
}

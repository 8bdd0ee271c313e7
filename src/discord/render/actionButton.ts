import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type ButtonStyle,
  ComponentType,
} from 'discord.js';
import { type ChangeButton, customId } from '../customId.js';

export type ActionStyle =
  | ButtonStyle.Primary
  | ButtonStyle.Secondary
  | ButtonStyle.Success
  | ButtonStyle.Danger;

/** A change's button: custom id `hostops:<action>:<id>`, which the router hands to the change flow. */
export function actionButton(
  action: ChangeButton,
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

import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type ButtonStyle,
  ComponentType,
} from 'discord.js';
import { customId } from '../customId.js';

export type ActionStyle =
  | ButtonStyle.Primary
  | ButtonStyle.Secondary
  | ButtonStyle.Success
  | ButtonStyle.Danger;

/** A button whose custom id is `hostops:<action>:<id>`, for the router to dispatch. */
export function actionButton(
  action: string,
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

import type { Translator } from '../../i18n/Translator.js';
import { SANDBOX_LABEL } from '../../sandbox/sandboxMode.js';

/** On the sandbox, an answer says so before anything else, so nobody takes it for the provider's. */
export function withSandboxNotice<T extends { content?: string }>(
  body: T,
  sandbox: boolean,
  t: Translator,
): T {
  if (!sandbox) return body;
  const notice = t('common.sandbox_notice', { label: SANDBOX_LABEL });
  return { ...body, content: body.content ? `${notice}\n${body.content}` : notice };
}

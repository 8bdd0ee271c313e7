import { SANDBOX_LABEL } from '../../sandbox/sandboxMode.js';

const NOTICE = `🧪 **${SANDBOX_LABEL}** — made-up data from the built-in sandbox; nothing real is read or changed.`;

/** On the sandbox, an answer says so before anything else, so nobody takes it for the provider's. */
export function withSandboxNotice<T extends { content?: string }>(body: T, sandbox: boolean): T {
  if (!sandbox) return body;
  return { ...body, content: body.content ? `${NOTICE}\n${body.content}` : NOTICE };
}

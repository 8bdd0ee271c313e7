/** The store could not be opened or migrated. The message is one line, names DATABASE_URL and holds no password. */
export class StoreOpenError extends Error {
  override readonly name = 'StoreOpenError';
}

const REDACTED = '***';

/** The URL with its password (in the user info or a `password` query parameter) replaced by `***`. */
export function redactDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Unparseable: hide the whole user info rather than guess where the password ends.
    const scheme = url.indexOf('://');
    const at = url.lastIndexOf('@');
    return scheme !== -1 && at > scheme ? `${url.slice(0, scheme + 3)}${REDACTED}${url.slice(at)}` : url;
  }
  if (parsed.password) parsed.password = REDACTED;
  for (const key of [...parsed.searchParams.keys()])
    if (/pass/i.test(key)) parsed.searchParams.set(key, REDACTED);
  return parsed.toString();
}

/** Every form in which the URL's secrets could show up in a driver's error text. */
export function secretsOf(url: string): string[] {
  const secrets = new Set<string>();
  const add = (value: string) => {
    if (!value) return;
    secrets.add(value);
    try {
      secrets.add(decodeURIComponent(value));
    } catch {
      // not percent-encoded after all
    }
  };
  try {
    const parsed = new URL(url);
    add(parsed.password);
    for (const [key, value] of parsed.searchParams) if (/pass/i.test(key)) add(value);
  } catch {
    const match = /^[^:]+:\/\/[^:@/]*:(.*)@/.exec(url);
    if (match?.[1]) add(match[1]);
  }
  return [...secrets].sort((a, b) => b.length - a.length);
}

export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join(REDACTED);
  return out;
}

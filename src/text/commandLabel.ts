/** How a command is named wherever people read it: `/domain info`, or `/help` without a subcommand. */
export function commandLabel(command: string, subcommand?: string | null): string {
  return `/${command}${subcommand ? ` ${subcommand}` : ''}`;
}

/** The inverse of commandLabel: `/domain info` → `domain`, `info`; `/help` → `help`, ``. */
export function labelParts(label: string): { command: string; subcommand: string } {
  const [command = '', subcommand = ''] = label.replace(/^\//, '').split(' ', 2);
  return { command, subcommand };
}

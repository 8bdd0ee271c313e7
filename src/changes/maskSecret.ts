/** A secret as records and public messages show it: only its last four characters, e.g. `…WXYZ`. */
export function maskSecret(value: string): string {
  return `…${[...value].slice(-4).join('')}`;
}

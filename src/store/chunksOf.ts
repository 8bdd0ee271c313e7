// Rows per statement (importRows, watch.add), well below SQLite's 32,766 and PostgreSQL's 65,535 bound parameters.
const CHUNK = 500;

/** `rows` in slices small enough for one INSERT or IN list each. */
export function* chunksOf<T>(rows: readonly T[]): Generator<readonly T[]> {
  for (let start = 0; start < rows.length; start += CHUNK) yield rows.slice(start, start + CHUNK);
}

// The project's own source files and the imports between them, read with the TypeScript compiler's own
// pre-processor (`ts.preProcessFile`: every `import`, `import type`, `export … from` and `import()`,
// type positions included, without building a program), so the structure tests take well under a second.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';

export const ROOT = join(import.meta.dirname, '..', '..');

/** Every file under `dirs` (repository-relative, `/`-separated) whose name ends with one of `extensions`. */
export function filesUnder(dirs: readonly string[], extensions: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = posix.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(path);
      } else if (extensions.some((ext) => entry.name.endsWith(ext)) && !entry.name.endsWith('.d.ts')) {
        found.push(path);
      }
    }
  };
  for (const dir of dirs) if (existsSync(join(ROOT, dir))) walk(dir);
  return found.sort();
}

/** The file a relative specifier names: `./x.js` is `./x.ts` in the sources. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  for (const candidate of [target.replace(/\.js$/, '.ts'), target, `${target}.ts`, `${target}/index.ts`]) {
    if (existsSync(join(ROOT, candidate)) && !candidate.endsWith('/')) return candidate;
  }
  return undefined;
}

/** The project's own files `text` (the source of `file`) imports, type-only imports included. */
export function importsOf(file: string, text: string): string[] {
  const targets = new Set<string>();
  for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const target = resolveSpecifier(file, fileName);
    if (target === undefined) throw new Error(`${file}: cannot resolve ${fileName}`);
    targets.add(target);
  }
  return [...targets];
}

/** Each file's imports of the project's own files (package imports left out). */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  return new Map(files.map((file) => [file, importsOf(file, readFileSync(join(ROOT, file), 'utf8'))]));
}

/** Strongly connected components of more than one file (or a file importing itself): the circles. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative so that a long chain cannot overflow the stack.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; edge: number };
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++] as string;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(to) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined)
        low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || edges.includes(frame.node)) found.push(component.sort());
      }
    }
  }
  return found;
}

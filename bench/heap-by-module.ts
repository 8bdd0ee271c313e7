// Heap by module: attributes a V8 heap snapshot's bytes to the package (or HostOps file) they came from,
// so "where does the memory go" can be answered per dependency. Given two snapshots, prints both and the
// difference (e.g. HostOps against the bare bot, both taken by `bench/footprint.ts`).
// Usage: npx tsx bench/heap-by-module.ts a.heapsnapshot [b.heapsnapshot] [top]
//
// Attribution, each node counted once, in this order:
// 1. code: every Script (its source and line ends) and every SharedFunctionInfo of it with what hangs off
//    it by internal edges (bytecode, constant pools, scope infos, feedback metadata, source positions);
// 2. closures of those functions with their feedback cells/vectors, and the contexts they close over
//    (module scope: top-level variables);
// 3. instances: an object whose map's constructor is a function of the module, with its property and
//    element backing stores.
// The rest (plain objects, arrays and strings built at run time, V8's own tables) is "unattributed".
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

export function moduleOf(url: string): string {
  if (url === '') return '(no script)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:') || !url.includes('/')) return 'node core';
  for (const marker of ['/dist/', '/work/main/']) {
    const at = url.indexOf(marker);
    if (at >= 0) {
      const path = url.slice(at + marker.length).split('/');
      return `hostops ${path.slice(0, Math.min(2, path.length - 1)).join('/') || path[0]}`;
    }
  }
  if (url.includes('/bench/')) return 'bench reference';
  return url.length > 60 ? `…${url.slice(-60)}` : url;
}

export function heapByModule(json: string): { total: number; byModule: Map<string, number> } {
  const s = JSON.parse(json) as Snapshot;
  const NF = s.snapshot.meta.node_fields.length;
  const EF = s.snapshot.meta.edge_fields.length;
  const fTypeN = s.snapshot.meta.node_fields.indexOf('type');
  const fName = s.snapshot.meta.node_fields.indexOf('name');
  const fSize = s.snapshot.meta.node_fields.indexOf('self_size');
  const fEdges = s.snapshot.meta.node_fields.indexOf('edge_count');
  const eType = s.snapshot.meta.edge_fields.indexOf('type');
  const eName = s.snapshot.meta.edge_fields.indexOf('name_or_index');
  const eTo = s.snapshot.meta.edge_fields.indexOf('to_node');
  const nodeTypes = s.snapshot.meta.node_types[0];
  const edgeTypes = s.snapshot.meta.edge_types[0];
  const { nodes, edges, strings } = s;
  const count = nodes.length / NF;
  const firstEdge = new Uint32Array(count + 1);
  for (let k = 0, e = 0; k < count; k++) {
    firstEdge[k] = e;
    e += (nodes[k * NF + fEdges] ?? 0) * EF;
  }
  firstEdge[count] = edges.length;
  const T = {
    closure: nodeTypes.indexOf('closure'),
    object: nodeTypes.indexOf('object'),
    code: nodeTypes.indexOf('code'),
    hidden: nodeTypes.indexOf('hidden'),
    array: nodeTypes.indexOf('array'),
    string: nodeTypes.indexOf('string'),
  };
  const E = {
    internal: edgeTypes.indexOf('internal'),
    weak: edgeTypes.indexOf('weak'),
    element: edgeTypes.indexOf('element'),
    hidden: edgeTypes.indexOf('hidden'),
  };
  const type = (k: number) => nodes[k * NF + fTypeN] ?? -1;
  const name = (k: number) => strings[nodes[k * NF + fName] ?? 0] ?? '';
  const size = (k: number) => nodes[k * NF + fSize] ?? 0;
  function* out(k: number): Generator<[edgeType: number, edgeName: string, to: number]> {
    const end = firstEdge[k + 1] ?? 0;
    for (let e = firstEdge[k] ?? 0; e < end; e += EF) {
      const t = edges[e + eType] ?? -1;
      const n = t === E.element || t === E.hidden ? '' : (strings[edges[e + eName] ?? 0] ?? '');
      yield [t, n, (edges[e + eTo] ?? 0) / NF];
    }
  }

  const owner = new Int32Array(count).fill(-1);
  const modules: string[] = [];
  const moduleIndex = new Map<string, number>();
  const idOf = (module: string) => {
    let id = moduleIndex.get(module);
    if (id === undefined) {
      id = modules.length;
      modules.push(module);
      moduleIndex.set(module, id);
    }
    return id;
  };
  /** Claims k and what hangs off it by internal/hidden edges (not other functions, maps or objects). */
  const claim = (k: number, module: number, deep: boolean) => {
    const stack = [k];
    while (stack.length > 0) {
      const n = stack.pop() ?? 0;
      if (owner[n] !== -1) continue;
      owner[n] = module;
      if (!deep) continue;
      for (const [et, en, to] of out(n)) {
        if (owner[to] !== -1 || et === E.weak) continue;
        const tt = type(to);
        if (tt === T.closure || tt === T.object) continue;
        if (en === 'map' || en === 'script_or_debug_info' || en === 'script') continue;
        if (tt === T.code && scriptOfSfi.has(to)) continue;
        if (et === E.internal || et === E.hidden || tt === T.array || tt === T.code || tt === T.hidden)
          stack.push(to);
      }
    }
  };

  // Functions and their scripts.
  const scriptOfSfi = new Map<number, number>();
  const moduleOfScript = new Map<number, number>();
  for (let k = 0; k < count; k++) {
    if (type(k) !== T.code) continue;
    for (const [, en, to] of out(k)) {
      if (en === 'script_or_debug_info' || en === 'script') {
        // A Script node is named by its URL; a debug info points on to one.
        let script = to;
        if (!moduleOfScript.has(script)) {
          const scriptName = name(script);
          if (scriptName.startsWith('system / DebugInfo')) {
            for (const [, n2, to2] of out(script)) if (n2 === 'script') script = to2;
          }
          moduleOfScript.set(script, idOf(moduleOf(name(script))));
        }
        scriptOfSfi.set(k, script);
      }
    }
  }
  for (const [script, module] of moduleOfScript) claim(script, module, true);
  for (const [sfi, script] of scriptOfSfi)
    claim(sfi, moduleOfScript.get(script) ?? idOf('(no script)'), true);

  // Closures, their feedback and contexts.
  const moduleOfClosure = (k: number): number | undefined => {
    for (const [, en, to] of out(k)) {
      if (en === 'shared') {
        const script = scriptOfSfi.get(to);
        return script === undefined ? undefined : moduleOfScript.get(script);
      }
    }
    return undefined;
  };
  for (let k = 0; k < count; k++) {
    if (type(k) !== T.closure) continue;
    const module = moduleOfClosure(k);
    if (module === undefined) continue;
    claim(k, module, false);
    for (const [, en, to] of out(k)) {
      if (en === 'feedback_cell' || en === 'context') claim(to, module, true);
    }
  }

  // Instances, by their constructor.
  const moduleOfMap = new Map<number, number | undefined>();
  for (let k = 0; k < count; k++) {
    if (type(k) !== T.object || owner[k] !== -1) continue;
    let map = -1;
    for (const [, en, to] of out(k)) if (en === 'map') map = to;
    if (map < 0) continue;
    if (!moduleOfMap.has(map)) {
      let module: number | undefined;
      for (const [, en, to] of out(map)) {
        if (en === 'constructor' && type(to) === T.closure) module = moduleOfClosure(to);
      }
      moduleOfMap.set(map, module);
    }
    const module = moduleOfMap.get(map);
    if (module !== undefined) claim(k, module, true);
  }

  const byModule = new Map<string, number>();
  let total = 0;
  for (let k = 0; k < count; k++) {
    const bytes = size(k);
    total += bytes;
    const o = owner[k] ?? -1;
    const module = o === -1 ? 'unattributed' : (modules[o] ?? '?');
    byModule.set(module, (byModule.get(module) ?? 0) + bytes);
  }
  return { total, byModule };
}

function main(): void {
  const args = process.argv.slice(2);
  const files = args.filter((a) => !/^\d+$/.test(a));
  const top = Number(args.find((a) => /^\d+$/.test(a)) ?? 30);
  if (files.length === 0 || files.length > 2) {
    process.stderr.write('usage: tsx bench/heap-by-module.ts a.heapsnapshot [b.heapsnapshot] [top]\n');
    process.exitCode = 2;
    return;
  }
  const results = files.map((f) => heapByModule(readFileSync(f, 'utf8')));
  const mb = (b: number) => (b / 1048576).toFixed(2);
  const [a, b] = results;
  if (a === undefined) return;
  const keys = new Set([...a.byModule.keys(), ...(b?.byModule.keys() ?? [])]);
  const rows = [...keys].map((k) => {
    const x = a.byModule.get(k) ?? 0;
    const y = b?.byModule.get(k) ?? 0;
    return { k, x, y, d: x - y };
  });
  rows.sort((p, q) => (b === undefined ? q.x - p.x : Math.abs(q.d) - Math.abs(p.d)));
  process.stdout.write(
    `${'module'.padEnd(40)} ${'A MB'.padStart(8)}${b ? `${'B MB'.padStart(8)}${'A−B'.padStart(8)}` : ''}\n`,
  );
  for (const r of rows.slice(0, top)) {
    process.stdout.write(
      `${r.k.slice(0, 40).padEnd(40)} ${mb(r.x).padStart(8)}${b ? `${mb(r.y).padStart(8)}${mb(r.d).padStart(8)}` : ''}\n`,
    );
  }
  process.stdout.write(
    `${'total'.padEnd(40)} ${mb(a.total).padStart(8)}${b ? `${mb(b.total).padStart(8)}${mb(a.total - b.total).padStart(8)}` : ''}\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) main();

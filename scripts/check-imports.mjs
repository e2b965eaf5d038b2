// The import rules of src/ and components/ (README, Layout), checked by `npm test`: imports point
// one way, down the layers below, and into another folder only through its face (`index.ts`). No
// cycle, type-only imports included. `node scripts/check-imports.mjs` prints each broken rule with
// its file and line, and exits 1 when there is one.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The layers, lowest first: a folder may import a folder of a lower layer only. */
export const LAYERS = [
  ['scrub', 'policy', 'client'],
  ['inject', 'exec'],
  ['store', 'worker'],
  ['lock'],
  ['core', 'backup'],
  ['sealed', 'forward', 'agent'],
  ['gateway'],
  ['components'],
];
/** The ground files under every layer: anything may import them; they import only each other. */
export const GROUND = ['src/contract.ts', 'src/errors.ts', 'src/limits.ts', 'src/validate.ts', 'src/endpoints.json', 'package.json'];
/** Imports of a folder's insides allowed from outside it, each for its reason. */
export const ENTRIES = {
  // The frame's first statement starts its settings' fetches and database's open (README, Benchmarks).
  'components/vault-frame.ts': ['src/gateway/boot.ts'],
};

const IMPORT =
  /(?:^|\n)[ \t]*(?:import|export)(?:[ \t]+type)?[^'"`;]*?from[ \t]*['"]([^'"]+)['"]|(?:^|\n)[ \t]*import[ \t]*['"]([^'"]+)['"]|import\([ \t]*['"]([^'"]+)['"][ \t]*\)/g;

/** The folder a file belongs to: `ground`, a folder of src/, or `components`. */
export function folderOf(path) {
  if (GROUND.includes(path)) return 'ground';
  if (path.startsWith('components/')) return 'components';
  const m = /^src\/([^/]+)\//.exec(path);
  return m ? m[1] : null;
}

const rankOf = (folder) => LAYERS.findIndex((layer) => layer.includes(folder));

/** The files under `dir` of `root` (repository paths) whose names `wanted` takes. */
function filesUnder(root, dir, wanted, out = []) {
  if (!existsSync(join(root, dir))) return out;
  for (const name of readdirSync(join(root, dir))) {
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) filesUnder(root, path, wanted, out);
    else if (wanted(name)) out.push(path);
  }
  return out;
}

/** Each relative import of `file`: its specifier, the repository path it names, and its line. */
function* relativeImports(root, file) {
  const text = readFileSync(join(root, file), 'utf8');
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec.startsWith('.')) continue;
    const target = relative(root, resolve(root, dirname(file), spec))
      .split('\\')
      .join('/');
    yield { spec, target, line: text.slice(0, m.index + m[0].indexOf(spec)).split('\n').length };
  }
}

/** Every broken rule under `root` (the repository), as `{ file, line, rule }`, and the cycles found. */
export function checkImports(root) {
  const source = (name) => /\.ts$/.test(name) && !/\.(test|d)\.ts$/.test(name);
  const files = [...filesUnder(root, 'src', source), ...filesUnder(root, 'components', source)];
  const problems = [];
  const graph = new Map(files.map((f) => [f, new Set()]));
  for (const file of files) {
    const from = folderOf(file);
    for (const { spec, target, line } of relativeImports(root, file)) {
      const say = (rule) => problems.push({ file, line, rule });
      if (graph.has(target)) graph.get(file).add(target);
      const to = folderOf(target);
      if (to === null) {
        say(`${spec} is outside src/ and components/`);
        continue;
      }
      if (from === 'ground') {
        if (to !== 'ground') say(`a ground file imports ${target}: ground files import only each other`);
        continue;
      }
      if (to === 'ground' || to === from) continue;
      if (target !== `src/${to}/index.ts` && !(ENTRIES[file] ?? []).includes(target)) say(`${target} is inside ${to}/: import its face, src/${to}/index.ts`);
      if (rankOf(to) >= rankOf(from)) say(`${from}/ imports ${to}/, which is not a layer below it`);
    }
  }
  problems.push(...checkTestImports(root));
  return { files: files.length, problems, cycles: cyclesOf(graph) };
}

/**
 * The tests' one rule: a folder's own tests (`test/<folder>/`) may import its files directly; any
 * other test reaches a folder of src/ through its face, as the other folders do.
 */
export function checkTestImports(root) {
  const problems = [];
  const check = (file) => {
    const own = /^test\/([^/]+)\//.exec(file)?.[1];
    for (const { target, line } of relativeImports(root, file)) {
      const to = folderOf(target);
      if (to === null || to === 'ground' || to === 'components' || to === own || target === `src/${to}/index.ts`) continue;
      problems.push({ file, line, rule: `${target} is inside ${to}/: a test of another folder imports its face, src/${to}/index.ts` });
    }
  };
  for (const file of filesUnder(root, 'test', (name) => /\.(ts|mjs)$/.test(name))) check(file);
  return problems;
}

/** Strongly connected groups of more than one file (Tarjan), or a file importing itself. */
function cyclesOf(graph) {
  let index = 0;
  const stack = [];
  const on = new Set();
  const idx = new Map();
  const low = new Map();
  const cycles = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || graph.get(v).has(v)) cycles.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return cycles;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { files, problems, cycles } = checkImports(root);
  for (const { file, line, rule } of problems) console.error(`${file}:${line}: ${rule}`);
  for (const cycle of cycles) console.error(`import cycle: ${cycle.join(' → ')}`);
  if (problems.length || cycles.length) process.exit(1);
  console.log(`imports: ${files} files, every import points down and through a face, no cycle`);
}

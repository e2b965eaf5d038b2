// `npm run build`: the deployable static site in dist/: the three documents, config.json,
// embedders.json and the bundled modules (no bare imports left), plus the Spectrum CSS they link.
import { build } from 'esbuild';
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const defaultDist = `${root}dist/`;
const MODULE = /src="\/components\/([\w-]+)\.ts"/g;

/**
 * JSON modules (the built-in endpoints, package.json) become `JSON.parse` of one string: the
 * same object, and the engine reads a string much faster than an object literal, on every frame
 * boot (README, Benchmarks).
 */
const jsonModules = {
  name: 'json-modules',
  setup(build) {
    build.onLoad({ filter: /\.json$/ }, async (args) => {
      const text = JSON.stringify(JSON.parse(await readFile(args.path, 'utf8')));
      return { loader: 'js', contents: `export default JSON.parse(${JSON.stringify(text)});` };
    });
  },
};

/**
 * In the frame's bundle, j-toml starts at its first parse, not as the bundle loads: the worker
 * parses policy files, the frame only when there is no worker, and j-toml's top level (118 KB,
 * hundreds of statements) took about 10 ms to compile on every frame boot (README, Benchmarks).
 * Its module becomes the body of a function declaration, which engines compile only when called.
 */
export const lazyToml = {
  name: 'lazy-toml',
  setup(build) {
    const file = fileURLToPath(new URL('../node_modules/@ltd/j-toml/index.mjs', import.meta.url));
    build.onResolve({ filter: /^@ltd\/j-toml$/ }, () => ({ path: file, namespace: 'lazy-toml' }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-toml' }, async () => {
      const source = await readFile(file, 'utf8');
      const exports = /^export \{[^}]*\b_export as default\b[^}]*\};?$/m;
      if (!exports.test(source) || /^\s*(import|export)\b/m.test(source.replace(exports, ''))) {
        throw new Error('lazy-toml: @ltd/j-toml no longer has the one export statement this build expects');
      }
      return {
        loader: 'js',
        contents: `let started;\nfunction start() {\n${source.replace(exports, 'return _export;')}\n}\nexport default { parse: (...args) => (started ??= start()).parse(...args) };\n`,
      };
    });
  },
};

/** The embedder's client as one module, `client.js`: served by the site and packed by `npm pack`. */
export async function buildClient(dist = defaultDist) {
  await build({ entryPoints: [`${root}src/client/index.ts`], outfile: `${dist}client.js`, bundle: true, format: 'esm', target: 'es2022', logLevel: 'warning' });
}

/** Builds the site into `dist` (or another folder, for tests). */
export async function buildSite(dist = defaultDist) {
  await rm(dist, { recursive: true, force: true });
  await mkdir(dist, { recursive: true });
  const documents = (await readdir(`${root}static`)).filter((f) => f.endsWith('.html'));
  const html = new Map();
  const entries = new Set();
  for (const file of documents) {
    html.set(file, await readFile(`${root}static/${file}`, 'utf8'));
    for (const [, name] of html.get(file).matchAll(MODULE)) entries.add(name);
  }
  const options = {
    outdir: dist,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: !process.env.NO_MINIFY,
    sourcemap: true,
    plugins: [jsonModules],
    logLevel: 'warning',
  };
  // The frame's module is one file: a frame boots on every embedder page load, and a graph of
  // shared chunks is fetched in waves (docs/benchmarks.md, Boot). It is named by its
  // content, so that hosts can let browsers keep it, compiled, for good (README, Documents and
  // hosting); index.html names the file of this build.
  const frame = await build({
    ...options,
    plugins: [...options.plugins, lazyToml],
    entryNames: '[name]-[hash]',
    metafile: true,
    entryPoints: [{ in: `${root}components/vault-frame.ts`, out: 'vault-frame' }],
  });
  const frameFile = basename(Object.keys(frame.metafile.outputs).find((f) => f.endsWith('.js')));
  for (const [file, text] of html) {
    await writeFile(
      `${dist}${file}`,
      text.replace(MODULE, (_, name) => `src="./${name === 'vault-frame' ? frameFile : `${name}.js`}"`),
    );
  }
  await build({
    // The popup's age worker and the vault's worker (their clients load ./age-worker.js and ./worker.js beside the bundle).
    entryPoints: [
      ...[...entries].filter((name) => name !== 'vault-frame').map((name) => ({ in: `${root}components/${name}.ts`, out: name })),
      { in: `${root}src/backup/age-worker.ts`, out: 'age-worker' },
      { in: `${root}src/worker/worker.ts`, out: 'worker' },
    ],
    ...options,
    splitting: true,
  });
  await buildClient(dist);
  for (const file of ['config.json', 'embedders.json']) await cp(`${root}static/${file}`, `${dist}${file}`);
  const styles = (await readdir(`${root}static`)).filter((f) => f.endsWith('.css') || f.endsWith('.svg'));
  for (const file of styles) await cp(`${root}static/${file}`, `${dist}${file}`);
  return { documents, modules: [...entries].map((name) => (name === 'vault-frame' ? frameFile : `${name}.js`)) };
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--client') {
  await buildClient();
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { documents, modules } = await buildSite();
  console.log(`dist/: ${documents.join(', ')}, config.json, embedders.json; modules ${modules.join(', ')}`);
}

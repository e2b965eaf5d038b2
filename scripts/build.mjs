// `npm run build`: the deployable static site in dist/: the three documents, config.json,
// embedders.json and the bundled modules (no bare imports left), plus the Spectrum CSS they link.
import { build } from 'esbuild';
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const defaultDist = `${root}dist/`;
const MODULE = /src="\/components\/([\w-]+)\.ts"/g;

/**
 * CSS module scripts (`with { type: 'css' }`, loaded natively in development) become constructed
 * style sheets in the bundle: no <style> element, so the CSP needs no 'unsafe-inline'.
 */
const cssModules = {
  name: 'css-modules',
  setup(build) {
    build.onLoad({ filter: /\.css$/ }, async (args) => {
      if (args.with?.type !== 'css') return undefined;
      const text = await readFile(args.path, 'utf8');
      return { loader: 'js', contents: `const sheet = new CSSStyleSheet();\nsheet.replaceSync(${JSON.stringify(text)});\nexport default sheet;` };
    });
  },
};

/** Builds the site into `dist` (or another folder, for tests). */
export async function buildSite(dist = defaultDist) {
  await rm(dist, { recursive: true, force: true });
  await mkdir(dist, { recursive: true });
  const documents = (await readdir(`${root}static`)).filter((f) => f.endsWith('.html'));
  const entries = new Set();
  for (const file of documents) {
    const html = await readFile(`${root}static/${file}`, 'utf8');
    for (const [, name] of html.matchAll(MODULE)) entries.add(name);
    await writeFile(`${dist}${file}`, html.replace(MODULE, 'src="./$1.js"'));
  }
  const options = {
    outdir: dist,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    loader: { '.json': 'json' },
    plugins: [cssModules],
    logLevel: 'warning',
  };
  // The frame's module is one file: a frame boots on every embedder page load, and a graph of
  // shared chunks is fetched in waves (README, Benchmarks: frame boot).
  await build({ ...options, entryPoints: [{ in: `${root}components/vault-frame.ts`, out: 'vault-frame' }] });
  await build({
    // The popup's age worker and the vault's worker (their clients load ./age-worker.js and ./worker.js beside the bundle).
    entryPoints: [
      ...[...entries].filter((name) => name !== 'vault-frame').map((name) => ({ in: `${root}components/${name}.ts`, out: name })),
      { in: `${root}src/age-worker.ts`, out: 'age-worker' },
      { in: `${root}src/worker.ts`, out: 'worker' },
    ],
    ...options,
    splitting: true,
  });
  for (const file of ['config.json', 'embedders.json']) await cp(`${root}static/${file}`, `${dist}${file}`);
  const styles = (await readdir(`${root}static`)).filter((f) => f.endsWith('.css') || f.endsWith('.svg'));
  for (const file of styles) await cp(`${root}static/${file}`, `${dist}${file}`);
  return { documents, modules: [...entries] };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { documents, modules } = await buildSite();
  console.log(`dist/: ${documents.join(', ')}, config.json, embedders.json; modules ${modules.map((m) => `${m}.js`).join(', ')}`);
}

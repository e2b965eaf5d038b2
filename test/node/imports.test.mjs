// The import rules (README, Layout), on this repository and on a small tree of broken ones.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkImports } from '../../scripts/check-imports.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A repository of the given files (path → text), checked. */
function check(files) {
  const dir = mkdtempSync(join(tmpdir(), 'imports-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return checkImports(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('this repository keeps every import rule and has no cycle', () => {
  const { problems, cycles } = checkImports(root);
  assert.deepEqual(problems, []);
  assert.deepEqual(cycles, []);
});

test('an import of another folder that skips its face is caught', () => {
  const { problems } = check({
    'src/store/records.ts': "import { parsePolicyFile } from '../policy/parsed.ts';\n",
    'src/policy/parsed.ts': 'export const parsePolicyFile = 1;\n',
  });
  assert.equal(problems.length, 1);
  assert.match(problems[0].rule, /src\/policy\/parsed\.ts is inside policy\/: import its face/);
  assert.equal(problems[0].line, 1);
});

test("a folder's own tests may import its files; another folder's test reaches them only through the face", () => {
  const { problems } = check({
    'src/store/records.ts': 'export const Records = 1;\n',
    'src/store/index.ts': "export { Records } from './records.ts';\n",
    'test/store/records.test.ts': "import { Records } from '../../src/store/records.ts';\n",
    'test/lock/lock.test.ts': "import { Records } from '../../src/store/index.ts';\nimport { Records as R } from '../../src/store/records.ts';\n",
  });
  assert.deepEqual(
    problems.map((p) => `${p.file}:${p.line}: ${p.rule}`),
    ['test/lock/lock.test.ts:2: src/store/records.ts is inside store/: a test of another folder imports its face, src/store/index.ts'],
  );
});

test('a pure rule importing a store, or a store importing a feature, is caught', () => {
  const { problems } = check({
    'src/policy/accepted.ts': "import type { VaultDb } from '../store/index.ts';\n",
    'src/store/records.ts': "\n\nimport { Vault } from '../core/index.ts';\n",
    'src/store/index.ts': '',
    'src/core/index.ts': '',
  });
  assert.deepEqual(
    problems.map((p) => `${p.file}:${p.line}: ${p.rule}`),
    [
      'src/policy/accepted.ts:1: policy/ imports store/, which is not a layer below it',
      'src/store/records.ts:3: store/ imports core/, which is not a layer below it',
    ],
  );
});

test('two folders of one layer may not import each other, and a ground file imports only ground', () => {
  const { problems } = check({
    'src/forward/forward.ts': "import { parseStamp } from '../sealed/index.ts';\n",
    'src/sealed/index.ts': '',
    'src/limits.ts': "import { x } from './store/index.ts';\n",
    'src/store/index.ts': '',
  });
  assert.equal(problems.length, 2);
  assert.match(problems.find((p) => p.file === 'src/forward/forward.ts').rule, /forward\/ imports sealed\/, which is not a layer below it/);
  assert.match(problems.find((p) => p.file === 'src/limits.ts').rule, /ground files import only each other/);
});

test('a cycle is caught, a type-only one too', () => {
  const { problems, cycles } = check({
    'src/store/requests.ts': "import { bump } from './namespaces.ts';\n",
    'src/store/namespaces.ts': "import type { StoredRequest } from './requests.ts';\n",
  });
  assert.deepEqual(problems, []);
  assert.deepEqual(cycles, [['src/store/namespaces.ts', 'src/store/requests.ts']]);
});

// components/spectrum.styles.ts is what scripts/spectrum-styles.mjs writes from the installed Spectrum packages.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { OUT, spectrumStyles } from '../../scripts/spectrum-styles.mjs';

test('the Spectrum style module is the one the installed packages give: rerun scripts/spectrum-styles.mjs after an upgrade', async () => {
  assert.equal(readFileSync(OUT, 'utf8'), await spectrumStyles());
});

test('no module imports CSS as a CSS module script, which WebKit refuses', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  let found = '';
  try {
    found = execFileSync('git', ['grep', '-lE', 'with \\{ *type: *[\'"]css[\'"]', '--', 'components', 'demo', 'src', 'static', 'test', ':!test/node'], {
      cwd: root,
      encoding: 'utf8',
    });
  } catch (error) {
    if (error.status !== 1) throw error;
  }
  assert.equal(found, '');
});

// The README's section "Embed it in your own page" as the end-to-end tests read it: its `sh`
// command and its `html` page, taken from the README's text.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The vault origin the example names (`npm start`'s), replaced by a run's own. */
export const EXAMPLE_VAULT = 'http://vault.sliccy.localhost:8702';

export function readmeExample() {
  const readme = readFileSync(`${root}README.md`, 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith('Embed it in your own page\n'));
  assert.ok(section, 'the README has a section "Embed it in your own page"');
  const block = (lang) => {
    const start = section.indexOf(`\`\`\`${lang}\n`);
    assert.notEqual(start, -1, `the section has a ${lang} block`);
    const from = start + lang.length + 4;
    return section.slice(from, section.indexOf('\n```', from));
  };
  const command = block('sh');
  const embedders = /^EMBEDDERS="([^"]+)" npm start$/.exec(command.trim())?.[1];
  assert.ok(embedders, `the command sets EMBEDDERS for npm start: ${command}`);
  const html = block('html');
  assert.ok(html.includes(EXAMPLE_VAULT), `the page names npm start's vault origin, ${EXAMPLE_VAULT}`);
  /** The page as written, but for the vault origin of this run. */
  const page = (vaultOrigin) => html.replaceAll(EXAMPLE_VAULT, vaultOrigin);
  return { embedders, html, page };
}

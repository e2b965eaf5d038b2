// The lock button: the embedder's hello, the availability it tells the embedder as the vault
// frames of its namespace change, a blocked popup, and accessibility and looks in every state.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import '../../components/vault-button.ts';
import type { VaultButton } from '../../components/VaultButton.ts';
import type { Availability } from '../../src/contract.ts';
import { clickButton, embedButton, embedIsolated, popup } from '../helpers/lock.ts';
import { origins } from '../helpers/origins.ts';
import { addFrame, loaded, resetVault, wait, welcomed } from '../helpers/vault.ts';
import { POPUP_NOT_IN_WEBKIT } from '../helpers/engines.ts';

const STAMP = { pid: 1, ppid: 0, uid: 1000, gid: 1000, tag: 't' };
const STATES: Availability[] = ['connecting', 'locked', 'waiting', 'ready'];
const BLOCKED = 'SLICC vault: the browser blocked the lock window. Allow pop-ups for this site, then press again';
/** The button's data attributes in the test page's button frame. */
const look = () =>
  executeServerCommand('window', {
    action: 'evaluate',
    frame: '/button.html',
    expression: "({ ...document.querySelector('vault-button').shadowRoot.querySelector('button').dataset })",
  }) as Promise<Record<string, string>>;

describe('the lock button', () => {
  beforeEach(resetVault);

  it('says connecting until a vault frame of its namespace says hello, then ready, and tells the embedder each change', async () => {
    const button = await embedButton();
    await button.until('connecting');
    expect(await button.label()).to.equal('SLICC vault: connecting');
    await welcomed();
    await button.until('ready');
    expect(button.said).to.deep.equal(['connecting', 'ready']);
    expect(await button.label()).to.equal('SLICC vault: unlocked. Open the lock');
  });

  it('says connecting again when the last vault frame of its namespace goes away', async () => {
    const first = await welcomed();
    const second = await welcomed();
    const button = await embedButton();
    await button.until('ready');
    first.frame!.remove();
    await wait(250);
    expect(button.said.at(-1)).to.equal('ready');
    second.frame!.remove();
    await button.until('connecting');
  });

  it('learns the availability from a frame that was there before it started', async () => {
    await welcomed();
    const button = await embedButton();
    await button.until('ready');
  });

  it('says waiting while a /dev/sealed request waits for the person, and ready again once it is cancelled', async () => {
    const page = await welcomed();
    const button = await embedButton();
    await button.until('ready');
    const { reply } = await page.request('sealed', { req: { op: 'request', kind: 'value', name: 'NEW_TOKEN' }, stamp: STAMP });
    expect(reply.state).to.equal('pending');
    await button.until('waiting');
    expect(await button.label()).to.equal('SLICC vault: a request is waiting for you');
    await page.request('cancel', { request: reply.id });
    await button.until('ready');
  });

  it('answers no hello of another type or version, and takes theme and scale from the hello', async () => {
    await welcomed();
    const frame = addFrame(`${origins.vault}/button.html`);
    await loaded(frame);
    const said: unknown[] = [];
    window.addEventListener('message', (e) => e.source === frame.contentWindow && said.push(e.data));
    frame.contentWindow!.postMessage({ type: 'slicc-vault-button', v: 2 }, origins.vault);
    frame.contentWindow!.postMessage({ type: 'slicc-vault', v: 1, op: 'hello' }, origins.vault);
    await wait(250);
    expect(said).to.deep.equal([]);
    frame.contentWindow!.postMessage({ type: 'slicc-vault-button', v: 1, theme: 'dark', scale: 'large' }, origins.vault);
    // It says `connecting` first, then `ready` once a frame of the namespace has told it.
    await waitUntil(() => (said.at(-1) as { availability?: string } | undefined)?.availability === 'ready', 'the button says ready', { timeout: 5000 });
    expect(said.at(-1)).to.deep.equal({ type: 'slicc-vault-button', v: 1, availability: 'ready' });
    const look = await executeServerCommand('window', {
      action: 'evaluate',
      frame: '/button.html',
      expression: "document.querySelector('vault-button').shadowRoot.querySelector('.spectrum').className",
    });
    expect(look).to.equal('spectrum spectrum--dark spectrum--large');
  });

  it('shows a popup the browser blocked as such, and opens none', async () => {
    await welcomed();
    // A sandbox without allow-popups: window.open returns null in Chromium, as under a popup
    // blocker, and throws InvalidAccessError in Firefox.
    const button = await embedButton({ sandbox: 'allow-scripts allow-same-origin' });
    await button.until('ready');
    await clickButton(button);
    // Chromium's null is told from a popup without an opener by the popup's silence (POPUP_WORD_MS).
    await waitUntil(async () => (await button.label()) === BLOCKED, 'the button says the browser blocked the window', { timeout: 15000 });
    expect(await popup.isOpen()).to.equal(false);
  });

  it(`opens one popup per namespace: a second click brings the open one forward ${POPUP_NOT_IN_WEBKIT}`, async () => {
    await welcomed();
    const button = await embedButton();
    await button.until('ready');
    await clickButton(button);
    await popup.shows('The vault opens by itself');
    await waitUntil(async () => (await look()).popup === 'open', 'the popup says it is up', { timeout: 10000 });
    await clickButton(button);
    await waitUntil(async () => (await look()).forwarded === '1', 'the open popup was brought forward', { timeout: 10000 });
    expect(await popup.count()).to.equal(1);
    expect(await button.label()).to.equal('SLICC vault: unlocked. Open the lock');
  });

  it(`opens the popup on a click, with the namespace, theme and scale in its address ${POPUP_NOT_IN_WEBKIT}`, async () => {
    await welcomed();
    const button = await embedButton({ theme: 'dark' });
    await button.until('ready');
    await clickButton(button);
    const url = new URL((await popup.wait()) as string);
    expect(url.origin).to.equal(origins.vault);
    expect(Object.fromEntries(url.searchParams)).to.deep.equal({ theme: 'dark', scale: 'medium', namespace: location.origin });
    await popup.shows('The vault opens by itself');
  });
});

describe("the lock button in a cross-origin isolated embedder, as bios embeds it (not in WebKit: the button in a second window never hears the test page's vault frames there)", () => {
  beforeEach(resetVault);

  it('shows the real state after a click, not blocked, though window.open gave it no popup', async () => {
    await welcomed();
    const button = await embedIsolated();
    expect(await button.isolated()).to.equal(true);
    await button.until((l) => l.state === 'ready', 'ready');
    await button.click();
    await popup.shows('The vault opens by itself');
    await button.until((l) => l.popup === 'open', 'told by the popup that it is up');
    expect((await button.look()).label).to.equal('SLICC vault: unlocked. Open the lock');
    expect(await button.said()).to.deep.equal(['connecting', 'ready']);
  });

  it('opens no second popup on a second click: the open one comes forward', async () => {
    await welcomed();
    const button = await embedIsolated();
    await button.until((l) => l.state === 'ready', 'ready');
    await button.click();
    await button.until((l) => l.popup === 'open', 'told by the popup that it is up');
    await button.click();
    await button.until((l) => l.forwarded === '1', 'the open popup brought forward');
    expect(await popup.count()).to.equal(1);
    expect((await button.look()).state).to.equal('ready');
  });

  it('still says blocked in a frame sandboxed without allow-popups', async () => {
    await welcomed();
    const button = await embedIsolated({ sandbox: 'allow-scripts allow-same-origin' });
    await button.until((l) => l.state === 'ready', 'ready');
    await button.click();
    await button.until((l) => l.label === BLOCKED, 'blocked');
    expect(await popup.count()).to.equal(0);
  });
});

describe('the lock documents', () => {
  it('are served with the production headers: CSP without inline script, frame-ancestors (the panel framed by the embedders), COEP, CORP, COOP on the popup alone', async () => {
    for (const path of ['/index.html', '/button.html', '/popup.html', '/panel.html']) {
      const headers = (await executeServerCommand('window', { action: 'headers', href: `${origins.vault}${path}` })) as Record<string, string>;
      const csp = headers['content-security-policy']!;
      expect(csp, path).to.contain("default-src 'self'");
      expect(csp, path).to.contain("object-src 'none'");
      expect(csp, path).to.contain("base-uri 'none'");
      expect(csp, path).not.to.contain('unsafe-inline');
      const ancestors = / frame-ancestors ([^;]+)/.exec(csp)![1];
      expect(ancestors, path).to.equal(path === '/popup.html' ? "'none'" : `${origins.embedder} ${origins.other}`);
      expect(headers['cross-origin-embedder-policy'], path).to.equal('require-corp');
      expect(headers['cross-origin-resource-policy'], path).to.equal('cross-origin');
      expect(headers['cross-origin-opener-policy'], path).to.equal(path === '/popup.html' ? 'same-origin' : undefined);
      expect(headers['referrer-policy'], path).to.equal('no-referrer');
      expect(headers['x-content-type-options'], path).to.equal('nosniff');
    }
  });
});

describe('the lock button, looked at', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`passes axe in every state, ${theme}`, async () => {
      for (const state of [...STATES, 'blocked'] as const) {
        const el = await fixture<VaultButton>(html`<vault-button .theme=${theme}></vault-button>`);
        if (state === 'blocked') el.blocked = true;
        else el.availability = state;
        await el.updateComplete;
        const button = el.shadowRoot!.querySelector('button')!;
        expect(button.getAttribute('aria-label')).to.match(/^SLICC vault: /);
        expect(button.dataset.state).to.equal(state);
        await expect(el).to.be.accessible();
      }
    });
  }

  it('is drawn in every state, light and dark, medium and large (screenshots)', async () => {
    document.body.replaceChildren();
    for (const theme of ['light', 'dark'] as const) {
      for (const scale of ['medium', 'large'] as const) {
        const row = document.createElement('div');
        row.style.cssText = `display:inline-flex;gap:8px;padding:8px;background:${theme === 'dark' ? '#1d1d1d' : '#ffffff'}`;
        for (const state of [...STATES, 'blocked'] as const) {
          const el = document.createElement('vault-button');
          el.theme = theme;
          el.scale = scale;
          if (state === 'blocked') el.blocked = true;
          else el.availability = state;
          row.append(el);
        }
        document.body.replaceChildren(row);
        await Promise.all([...row.querySelectorAll('vault-button')].map((b) => b.updateComplete));
        await wait(50);
        const r = row.getBoundingClientRect();
        await executeServerCommand('window', {
          action: 'screenshot',
          name: `lock/button-${theme}-${scale}.png`,
          clip: { x: r.x, y: r.y, width: r.width, height: r.height },
        });
      }
    }
  });
});

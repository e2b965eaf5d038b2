// Driving the lock from a test: the lock button embedded cross-origin, a real click on it, and the
// popup it opens, used with the real mouse and keyboard through the `window` test plugin.
import { executeServerCommand, sendMouse } from '@web/test-runner-commands';
import type { Availability } from '../../src/contract.ts';
import { origins } from './origins.ts';
import { loaded } from './vault.ts';
import { readUntil } from './poll.ts';

export const POPUP = '/popup.html';

export interface EmbeddedButton {
  frame: HTMLIFrameElement;
  /** Every availability the button told the embedder, in order. */
  said: Availability[];
  /** Waits until the last thing said is `availability`, said after the first `since` words. */
  until(availability: Availability, ms?: number, since?: number): Promise<void>;
  /** The button's accessible name, read in its frame. */
  label(): Promise<string>;
}

/** Embeds button.html, says the button hello after load, and records what it answers. */
export async function embedButton(options: { sandbox?: string; theme?: string; scale?: string } = {}): Promise<EmbeddedButton> {
  const frame = document.createElement('iframe');
  if (options.sandbox !== undefined) frame.setAttribute('sandbox', options.sandbox);
  frame.width = '64';
  frame.height = '64';
  const said: Availability[] = [];
  window.addEventListener('message', (e) => {
    if (e.source === frame.contentWindow && e.data?.type === 'slicc-vault-button') said.push(e.data.availability);
  });
  frame.src = `${origins.vault}/button.html`;
  document.body.prepend(frame);
  await loaded(frame);
  frame.contentWindow!.postMessage({ type: 'slicc-vault-button', v: 1, theme: options.theme, scale: options.scale }, origins.vault);
  const button: EmbeddedButton = {
    frame,
    said,
    async until(availability, ms = 10000, since = 0) {
      await readUntil(
        () => said,
        () => said.at(-1) === availability && said.length > since,
        () => `the button said ${JSON.stringify(said)}, not ${availability}`,
        ms,
        20,
      );
    },
    label: () =>
      executeServerCommand('window', {
        action: 'evaluate',
        frame: '/button.html',
        expression: "document.querySelector('vault-button').shadowRoot.querySelector('button').getAttribute('aria-label')",
      }) as Promise<string>,
  };
  cleanups.push(() => frame.remove());
  return button;
}

const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0)) undo();
  // One command for both kinds of window, and the embedder's only after a test opened one.
  await executeServerCommand('window', { action: 'close', url: POPUP, ...(isolatedOpened && { also: ISOLATED }) });
  isolatedOpened = false;
});
let isolatedOpened = false;

export const ISOLATED = '/test/fixtures/isolated-embedder.html';

/** The lock button as bios embeds it: in a top-level page of this origin that is cross-origin isolated. */
export interface IsolatedButton {
  /** Whether the embedder page is cross-origin isolated (COOP same-origin, COEP require-corp). */
  isolated(): Promise<boolean>;
  /** What the button told the embedder, in order. */
  said(): Promise<string[]>;
  /** The button's accessible name and data attributes, read in its frame. */
  look(): Promise<{ label: string; state: string; popup: string; forwarded: string }>;
  /** Waits until the button's look passes `test`. */
  until(test: (look: Awaited<ReturnType<IsolatedButton['look']>>) => boolean, what: string, ms?: number): Promise<void>;
  /** A real mouse click on the button. */
  click(): Promise<unknown>;
}

export async function embedIsolated(options: { sandbox?: string; panel?: boolean; frame?: boolean } = {}): Promise<IsolatedButton> {
  const params = new URLSearchParams({
    vault: origins.vault,
    ...(options.sandbox !== undefined && { sandbox: options.sandbox }),
    ...(options.panel && { panel: '' }),
    ...(options.frame && { frame: '' }),
  });
  isolatedOpened = true;
  await executeServerCommand('window', { action: 'goto', href: `${location.origin}${ISOLATED}?${params}` });
  const evaluate = (expression: string, frame?: string) =>
    executeServerCommand('window', { action: 'evaluate', url: ISOLATED, expression, ...(frame && { frame }) });
  const button: IsolatedButton = {
    isolated: () => evaluate('crossOriginIsolated') as Promise<boolean>,
    said: () => evaluate('window.said ?? []') as Promise<string[]>,
    look: () =>
      evaluate(
        "(() => { const b = document.querySelector('vault-button')?.shadowRoot?.querySelector('button'); return b ? { label: b.getAttribute('aria-label'), ...b.dataset } : { label: '', state: '', popup: '', forwarded: '' }; })()",
        '/button.html',
      ) as ReturnType<IsolatedButton['look']>,
    async until(test, what, ms = 15000) {
      await readUntil(button.look, test, (look) => `the button looks ${JSON.stringify(look)}, not ${what}`, ms);
    },
    click: () => executeServerCommand('window', { action: 'click-frame', url: ISOLATED, frame: '/button.html' }),
  };
  return button;
}

/** A real mouse click in the middle of the button's iframe. */
export async function clickButton(button: EmbeddedButton) {
  const r = button.frame.getBoundingClientRect();
  await sendMouse({ type: 'click', position: [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)] });
}

const popupCommand = (action: string, fields: Record<string, unknown> = {}) => executeServerCommand('window', { action, url: POPUP, ...fields });

/** The lock popup, driven like a person would. */
export const popup = {
  wait: () => popupCommand('wait'),
  isOpen: async () => (await popupCommand('open')) !== '',
  /** How many lock popups are open. */
  count: () => popupCommand('count') as Promise<number>,
  closed: (ms = 10000) => popupCommand('closed', { ms }) as Promise<boolean>,
  click: (text: string) => popupCommand('click', { text }),
  /** Focuses a field by its id and types into it with the keyboard. */
  async fill(field: string, text: string) {
    await popupCommand('focus-field', { field });
    await popupCommand('type', { text });
  },
  type: (text: string) => popupCommand('type', { text }),
  /**
   * Sets a field, submits its form in one step, and answers the error this attempt shows: the
   * alert is watched in the popup, from the moment the attempt clears it to the next error (or
   * what the popup shows after `ms` with no error, for the test to say).
   */
  attempt: (field: string, text: string, ms = 20000) =>
    popupCommand('evaluate', {
      expression: `new Promise((resolve) => {
        const root = document.querySelector('vault-popup').shadowRoot;
        const error = () => root.querySelector('[role=alert] .error')?.textContent ?? '';
        let cleared = false;
        const done = (shown) => { observer.disconnect(); clearTimeout(timer); resolve(shown); };
        const observer = new MutationObserver(() => {
          if (!error()) cleared = true;
          else if (cleared) done(error());
        });
        const timer = setTimeout(() => done(root.querySelector('main')?.innerText ?? ''), ${ms});
        observer.observe(root, { subtree: true, childList: true, characterData: true });
        const input = root.getElementById(${JSON.stringify(field)});
        input.value = ${JSON.stringify(text)};
        input.form.requestSubmit();
      })`,
    }) as Promise<string>,
  press: (key: string | string[]) => popupCommand('press', { key }),
  text: () =>
    popupCommand('evaluate', { expression: "document.querySelector('vault-popup')?.shadowRoot?.querySelector('main')?.innerText ?? ''" }) as Promise<string>,
  /** What has the keyboard focus in the popup: the focused element's tag and text or id. */
  focused: () =>
    popupCommand('evaluate', {
      expression:
        "(() => { const a = document.querySelector('vault-popup').shadowRoot.activeElement; return a ? `${a.tagName.toLowerCase()}:${a.id || a.textContent.trim()}` : '' })()",
    }) as Promise<string>,
  /** Waits until the popup's text contains `text`. */
  shows: (text: string, ms = 20000): Promise<string> =>
    readUntil(
      popup.text,
      (now) => now.includes(text),
      (now) => `the popup shows ${JSON.stringify(now)}, not ${JSON.stringify(text)}`,
      ms,
    ),
  addAuthenticator: (prf = true) => executeServerCommand('webauthn', { action: 'add', prf, target: POPUP }),
};

export const PANEL = '/panel.html';

const panelCommand = (action: string, fields: Record<string, unknown> = {}) =>
  executeServerCommand('window', { action, url: ISOLATED, frame: PANEL, host: 'vault-panel', ...fields });
const inEmbedder = (expression: string) => executeServerCommand('window', { action: 'evaluate', url: ISOLATED, expression });

/**
 * The panel the isolated embedder shows (embedIsolated({ panel: true })), driven like a person
 * would: real clicks at its place in the embedder's page, the keyboard.
 */
export const panel = {
  /** A request on the embedder's own page port (embedIsolated({ frame: true })): its reply. */
  // As JSON text: WebKitGTK's driver takes a script's result with an `error` field for its own error.
  request: async (op: string, fields: Record<string, unknown> = {}) =>
    JSON.parse((await inEmbedder(`vault.request(${JSON.stringify(op)}, ${JSON.stringify(fields)}).then(JSON.stringify)`)) as string),
  /** A new vault frame in the embedder, as after a reload: its welcome. */
  reloadFrame: () => inEmbedder('vault.reload()') as Promise<any>,
  /** Waits until the embedder's vault frame says it is `locked` (or not). */
  async locked(locked: boolean, ms = 10000) {
    await readUntil(
      () => inEmbedder('vault.locked'),
      (now) => now === locked,
      () => `the embedder's vault frame isn't ${locked ? 'locked' : 'unlocked'}`,
      ms,
    );
  },
  /** Whether the embedder shows the panel's iframe now. */
  shown: async () => (await inEmbedder(`Boolean(document.querySelector('iframe[src*="${PANEL}"]'))`)) as boolean,
  /** What the embedder did with the button's and the panel's asks: `shown <url>`, `asked again`, `closed`. */
  story: () => inEmbedder('window.panels ?? []') as Promise<string[]>,
  click: (text: string) => panelCommand('click', { text }),
  /** A real click on the field `id`, then its text typed. */
  async fill(field: string, text: string) {
    await panelCommand('click-field', { field });
    await panelCommand('type', { text });
  },
  press: (key: string | string[]) => panelCommand('press', { key }),
  /** Picks a file in the file input `field`, as a person does in the file dialog. */
  upload: (field: string, name: string, text: string) => panelCommand('upload', { field, name, text }),
  /** An expression evaluated in the panel's frame. */
  evaluate: (expression: string) => panelCommand('evaluate', { expression }),
  text: () => panel.evaluate("document.querySelector('vault-panel')?.shadowRoot?.querySelector('main')?.innerText ?? ''") as Promise<string>,
  /** Waits until the panel's text contains `text`, and answers it. */
  shows: (text: string, ms = 20000): Promise<string> =>
    readUntil(
      () => panel.text().catch(() => ''),
      (now) => now.includes(text),
      (now) => `the panel shows ${JSON.stringify(now)}, not ${JSON.stringify(text)}`,
      ms,
    ),
  /** Waits until the embedder's story has `entry` (a prefix) after its first `since` entries. */
  told: (entry: string, since = 0, ms = 15000): Promise<string[]> =>
    readUntil(
      panel.story,
      (story) => story.slice(since).some((e) => e.startsWith(entry)),
      (story) => `the embedder's panel story is ${JSON.stringify(story)}, without ${entry}`,
      ms,
    ),
};

// Starting the vault frame (index.html): hellos are held until config.json and embedders.json are
// loaded, then the gateway answers them. A missing or malformed file answers nobody.
import { openVaultDb } from './db.ts';
import { Gateway } from './gateway.ts';
import { loadSettings } from './settings.ts';
import { Vault } from './vault.ts';

export interface FrameOptions {
  /** The clock; tests on the vault origin pass one they control. */
  now?: () => number;
}

export function startVaultFrame(win: Window = window, options: FrameOptions = {}): { ready: Promise<Gateway | null>; stop: () => void } {
  let held: MessageEvent[] | null = [];
  let gateway: Gateway | null = null;
  const onMessage = (event: MessageEvent) => {
    if (gateway) void gateway.hello(event);
    else held?.push(event);
  };
  win.addEventListener('message', onMessage);
  const ready = (async () => {
    try {
      const { config, embedders } = await loadSettings(win.location.origin);
      const vault = await Vault.open({ db: await openVaultDb(), config, now: options.now });
      gateway = new Gateway(vault, embedders, win);
      for (const event of held ?? []) void gateway.hello(event);
      return gateway;
    } catch (error) {
      console.error(`slicc-vault: answering nobody: ${(error as Error).message}`);
      return null;
    } finally {
      held = null;
    }
  })();
  return { ready, stop: () => win.removeEventListener('message', onMessage) };
}

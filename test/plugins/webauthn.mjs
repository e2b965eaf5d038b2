// A test-runner plugin that gives a test page, or one of its popups, Chromium's virtual WebAuthn
// authenticator over CDP. Tests call it with executeServerCommand('webauthn', { action, ... }).
// Virtual authenticators belong to one page (a popup is a page of its own) and vanish with its CDP
// session, so sessions are kept per page. `target` is a substring of the popup's URL (the newest
// such page); without it the authenticator is the test page's.
import { isWebDriver } from './webdriver.mjs';

const sessions = new WeakMap();

async function cdpFor(session, target) {
  const page = session.browser.getPage(session.id);
  let targetPage = page;
  if (target) {
    const pages = (await page.browser().pages()).filter((p) => p.url().includes(target));
    targetPage = pages.at(-1);
    if (!targetPage) throw new Error(`webauthn: no page whose URL contains ${target}`);
  }
  let cdp = sessions.get(targetPage);
  if (!cdp) {
    cdp = await targetPage.createCDPSession();
    await cdp.send('WebAuthn.enable', { enableUI: false });
    sessions.set(targetPage, cdp);
  }
  return cdp;
}

export function webauthnPlugin() {
  return {
    name: 'webauthn',
    async executeCommand({ command, payload, session }) {
      if (command !== 'webauthn') return undefined;
      if (isWebDriver(session)) throw new Error('webauthn: no virtual authenticator over WebDriver (WebKitGTK has no WebAuthn)');
      const { action, target, prf = true, authenticatorId, userVerified = true } = payload ?? {};
      const cdp = await cdpFor(session, target);
      switch (action) {
        case 'add': {
          const { authenticatorId: id } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
            options: {
              protocol: 'ctap2',
              ctap2Version: 'ctap2_1',
              transport: 'internal',
              hasResidentKey: true,
              hasUserVerification: true,
              isUserVerified: userVerified,
              automaticPresenceSimulation: true,
              hasPrf: prf,
            },
          });
          return { authenticatorId: id };
        }
        case 'remove':
          await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
          return {};
        case 'credentials':
          return cdp.send('WebAuthn.getCredentials', { authenticatorId });
        default:
          throw new Error(`webauthn: unknown action ${action}`);
      }
    },
  };
}

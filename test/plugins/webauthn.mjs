// A test-runner plugin that gives a test page Chromium's virtual WebAuthn authenticator over CDP.
// Tests call it with executeServerCommand('webauthn', { action, ... }). The CDP session must stay
// open or the authenticator disappears, so sessions are kept per test session.
const sessions = new Map();

async function cdpFor(session, target) {
  const key = `${session.id}:${target ?? 'page'}`;
  let cdp = sessions.get(key);
  if (!cdp) {
    const page = session.browser.getPage(session.id);
    let targetPage = page;
    if (target) {
      // A popup (or other window) of the test page, found by its URL.
      const pages = await page.browser().pages();
      targetPage = pages.find((p) => p.url().includes(target));
      if (!targetPage) throw new Error(`webauthn: no page whose URL contains ${target}`);
    }
    cdp = await targetPage.createCDPSession();
    await cdp.send('WebAuthn.enable', { enableUI: false });
    sessions.set(key, cdp);
  }
  return cdp;
}

export function webauthnPlugin() {
  return {
    name: 'webauthn',
    async executeCommand({ command, payload, session }) {
      if (command !== 'webauthn') return undefined;
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

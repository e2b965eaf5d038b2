// A test-runner plugin that records every console line and uncaught error of the test page and its
// frames (same-site frames share the page's process), so canary tests can search them. Over
// WebDriver (WebKit) a recorder in each document keeps the lines from console-start on, and those of
// a frame from the first command that finds it (test/plugins/webdriver.mjs).
import { consoleLines, driverOf, isWebDriver } from './webdriver.mjs';

const logs = new Map();

export function consolePlugin() {
  return {
    name: 'console-capture',
    async executeCommand({ command, session }) {
      if ((command === 'console-start' || command === 'console-lines') && isWebDriver(session)) {
        const lines = await consoleLines(driverOf(session));
        return command === 'console-start' ? true : lines;
      }
      if (command === 'console-start') {
        const page = session.browser.getPage(session.id);
        if (!logs.has(session.id)) {
          const lines = [];
          logs.set(session.id, lines);
          page.on('console', (msg) => lines.push(msg.text()));
          page.on('pageerror', (error) => lines.push(String(error?.stack ?? error)));
        }
        return true;
      }
      if (command === 'console-lines') return logs.get(session.id) ?? [];
      return undefined;
    },
  };
}

// Finds the `age` command the backup tests read and write files with (README, Backup and restore):
// AGE_PATH, else `age` on PATH. Like Chromium, when it is missing `ensureAge` installs Debian's
// package (as root), or says how to get it. The vault itself never needs it.
import { ensureCommand, findCommand } from './install.mjs';

export const findAge = () => findCommand('AGE_PATH', ['age']);

export const ensureAge = () =>
  ensureCommand({
    what: 'age',
    env: 'AGE_PATH',
    names: ['age'],
    pkg: 'age',
    missing: 'No age command found. Install it (Debian/Ubuntu: `sudo apt-get install age`) or set AGE_PATH to an age executable.',
  });

// Finds a command the tests need (a browser, `age`): its environment variable, else one of its
// names on PATH. When none is found, `ensureCommand` installs Debian's package (as root), or
// throws saying how to get it. No test tool downloads anything else.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The executable `env` names, or the first of `names` on PATH; null when there is none. */
export function findCommand(env, names) {
  if (process.env[env]) return executable(process.env[env]) ? process.env[env] : null;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of names) if (dir && executable(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** Finds the command, or installs Debian's `pkg` (saying so) when run as root, or throws `missing`. */
export function ensureCommand({ what, env, names, pkg, missing }) {
  const found = findCommand(env, names);
  if (found) return found;
  if (process.env[env]) throw new Error(`${env} is ${process.env[env]}, which is not an executable file.`);
  if (existsSync('/etc/debian_version') && existsSync('/usr/bin/apt-get') && process.getuid?.() === 0) {
    console.log(`No ${what} found: installing Debian's ${pkg} package (apt-get install -y ${pkg})…`);
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    const installed = findCommand(env, names);
    if (installed) return installed;
  }
  throw new Error(missing);
}

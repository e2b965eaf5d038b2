// A document on the vault origin that tries passphrases with the vault's own lock (`src/lock.ts`:
// the popup's code, real IndexedDB and PBKDF2) against a database of its own, so the stress class
// of concurrent wrong passphrases leaves the vault's keys alone. Answers `{ v, id, op }` on the port
// it is handed: `set` (a passphrase lock with no failures), `guess` (a wrong passphrase) and
// `failures` (an error unless the stored count is the number of guesses tried, every document's).
import { openVaultDb } from '../src/store/index.ts';
import { openDevice } from '../src/lock/index.ts';
import { Lock, LockError } from '../src/lock/index.ts';

const DB = 'slicc-vault-stress-guesses';
const ITERATIONS = 600_000;
const PASSPHRASE = 'the right passphrase';
/** Guesses tried (not refused for a wait) since `set`, by every guessing document. */
const TRIED = 'stress-guesses-tried';
// Opened before anything is answered, but not awaited at the top: the hello may come meanwhile.
const opened = openVaultDb(DB).then((db) => ({ db, lock: new Lock(db, { iterations: ITERATIONS, rpName: 'stress' }) }));

async function answer(op: string): Promise<Record<string, unknown>> {
  const { db, lock } = await opened;
  if (op === 'set') {
    // A fresh key store: auto-unlock's device key first, then the passphrase lock over it.
    await db.clear('keys');
    await openDevice(db);
    await lock.setPassphrase(PASSPHRASE);
    localStorage.setItem(TRIED, '0');
    return { ok: true };
  }
  if (op === 'guess') {
    try {
      await lock.unlock({ passphrase: 'a wrong passphrase' });
      return { error: { code: 'EINVAL', message: 'a wrong passphrase unlocked' } };
    } catch (error) {
      // Tried and wrong, or refused untried while an earlier failure's wait runs: both are right.
      if (error instanceof LockError && error.reason === 'wrong-passphrase') {
        localStorage.setItem(TRIED, String(Number(localStorage.getItem(TRIED)) + 1));
        return { ok: true };
      }
      return error instanceof LockError && error.reason === 'too-soon' ? { ok: true } : { error: { code: 'EINVAL', message: String(error) } };
    }
  }
  if (op === 'failures') {
    const failures = ((await db.get('keys', 'passphrase')) as { failures?: number } | undefined)?.failures ?? 0;
    const tried = Number(localStorage.getItem(TRIED));
    return failures === tried && tried > 0 ? { failures } : { error: { code: 'EINVAL', message: `counted ${failures} failed attempts of ${tried} tried` } };
  }
  return { error: { code: 'ENOTSUP', message: op } };
}

addEventListener('message', (event) => {
  const port = event.ports[0];
  if (!port) return;
  port.onmessage = async ({ data }) => port.postMessage({ v: 1, id: data.id, ...(await answer(data.op)) });
  port.postMessage({ op: 'welcome' });
});

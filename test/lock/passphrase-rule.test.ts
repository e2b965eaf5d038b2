// One rule for a new passphrase typed twice (README, Key store and lock; Backup and restore): the
// lock's screens and a backup's count and compare it in NFC, as it is used.
import { expect } from '@open-wc/testing';
import { checkBackupPassphrase } from '../../src/backup/index.ts';
import { MIN_BACKUP_PASSPHRASE, MIN_PASSPHRASE_LENGTH } from '../../src/limits.ts';
import { newPassphraseProblem } from '../../src/validate.ts';

const composed = 'caf\u00e9 au lait';
const decomposed = 'cafe\u0301 au lait';

describe('a new passphrase typed twice', () => {
  it('is the same when its two typings differ only in Unicode composition, for the lock and for a backup', () => {
    expect(newPassphraseProblem(composed, decomposed, MIN_PASSPHRASE_LENGTH)).to.equal(null);
    expect(() => checkBackupPassphrase(`${composed}!!`, `${decomposed}!!`)).not.to.throw();
  });

  it('counts characters in NFC: a combining accent is no character of its own', () => {
    const seven = 'abcdef\u0065\u0301';
    expect([...seven].length).to.equal(MIN_PASSPHRASE_LENGTH);
    expect(newPassphraseProblem(seven, seven, MIN_PASSPHRASE_LENGTH)).to.equal('short');
    expect(newPassphraseProblem('x'.repeat(MIN_BACKUP_PASSPHRASE - 1), 'x'.repeat(MIN_BACKUP_PASSPHRASE - 1), MIN_BACKUP_PASSPHRASE)).to.equal('short');
  });

  it('says short before it says the two differ, and nothing when both are right', () => {
    expect(newPassphraseProblem('short', 'other', MIN_PASSPHRASE_LENGTH)).to.equal('short');
    expect(newPassphraseProblem('long enough one', 'long enough two', MIN_PASSPHRASE_LENGTH)).to.equal('mismatch');
    expect(newPassphraseProblem('long enough one', 'long enough one', MIN_PASSPHRASE_LENGTH)).to.equal(null);
  });
});

// The popup's backup and restore screens (README, Backup and restore), drawn from the backup
// model: a passphrase twice to back up; a file (picker or drop), its passphrase when it is an age
// file, and a preview by name to restore. Names, kinds, placeholders and counts only: no value.
import { css, html, nothing } from 'lit';
import type { PreviewItem } from '../src/backup/index.ts';
import { MIN_BACKUP_PASSPHRASE, MIN_PASSPHRASE_LENGTH } from '../src/limits.ts';
import type { BackupModel, BackupTask, PreviewView } from './backup-controller.ts';
import type { Parts } from './popup-parts.ts';

export const BACKUP_TITLES: Record<BackupTask, string> = {
  backup: 'Back up your secrets',
  restore: 'Restore secrets',
  'restore-passphrase': 'The backup’s passphrase',
  'restore-preview': 'What restoring does',
};

export const backupStyles = css`
  a {
    color: inherit;
    text-decoration: underline;
  }
  h2 {
    margin: var(--spectrum-spacing-400) 0 var(--spectrum-spacing-100);
    color: var(--spectrum-heading-color);
    font-size: var(--spectrum-font-size-200);
  }
  .drop {
    margin-block: var(--spectrum-spacing-300);
    padding: var(--spectrum-spacing-400);
    border: var(--spectrum-border-width-200) dashed var(--spectrum-gray-600);
    border-radius: var(--spectrum-corner-radius-100);
    text-align: center;
  }
  .drop.over {
    border-color: var(--spectrum-focus-indicator-color);
    background: var(--spectrum-gray-100);
  }
  .drop input[type='file'] {
    inline-size: auto;
    margin: 0;
    border: none;
    background: none;
  }
  table {
    inline-size: 100%;
    border-collapse: collapse;
    margin-block: var(--spectrum-spacing-200);
    font-size: var(--spectrum-font-size-75);
  }
  th,
  td {
    padding: var(--spectrum-spacing-75) var(--spectrum-spacing-100);
    border-block-end: var(--spectrum-border-width-100) solid var(--spectrum-gray-300);
    text-align: start;
    vertical-align: top;
  }
  .list {
    max-block-size: 18rem;
    overflow: auto;
  }
  code {
    font-family: var(--spectrum-code-font-family-stack, monospace);
    overflow-wrap: anywhere;
  }
  .note {
    color: var(--spectrum-neutral-subdued-content-color-default);
  }
`;

const STATUS: Record<PreviewItem['status'], string> = {
  new: 'new',
  replaces: 'replaces the value here',
  restores: 'brings back (removed here)',
  unchanged: 'unchanged',
  invalid: 'invalid',
};

export function backupScreen(model: BackupModel, parts: Parts) {
  const { task } = model.state;
  // Cancel stops a job under way (scrypt, a file read): it stays pressable while one runs.
  const cancel = parts.button('Cancel', () => model.cancel(), 'secondary', 'outline', model.state.stoppable);
  const site = html`<code>${model.state.site ?? ''}</code>`;
  switch (task) {
    case 'backup':
      return html`<p>
          The backup is one file with every secret of the SLICC site ${site}, removed ones included, encrypted with
          <a href="https://age-encryption.org" target="_blank" rel="noopener noreferrer">age</a> to a passphrase you choose
          now. Anyone with the file and the passphrase can read every value; without the passphrase nobody can, you neither.
        </p>
        <p class="note">
          It needs at least ${MIN_BACKUP_PASSPHRASE} characters, more than the lock's ${MIN_PASSPHRASE_LENGTH}: the lock's guesses are
          made in this browser, slowed and counted, while anyone who copies the file can guess at it offline, as fast as their
          computers go.
        </p>
        <form @submit=${(e: SubmitEvent) => parts.submit(e, (f) => model.backUp(f.get('backup-new') ?? '', f.get('backup-again') ?? ''))}>
          ${parts.field('backup-new', `Backup passphrase (at least ${MIN_BACKUP_PASSPHRASE} characters)`, 'new-password')}
          ${parts.field('backup-again', 'The same passphrase again', 'new-password')}
          <div class="actions">${parts.submitButton('Back up and download')} ${cancel}</div>
        </form>`;
    case 'restore':
      return html`<p>
          Restore into the SLICC site ${site}: choose a slicc-vault backup (an <code>.age</code> file, or one made with
          <code>age -p</code>) or a <code>.env</code> file. Nothing is written until you have seen what it changes.
        </p>
        <div
          class="drop"
          @dragover=${(e: DragEvent) => {
            e.preventDefault();
            (e.currentTarget as HTMLElement).classList.add('over');
          }}
          @dragleave=${(e: DragEvent) => (e.currentTarget as HTMLElement).classList.remove('over')}
          @drop=${(e: DragEvent) => {
            e.preventDefault();
            (e.currentTarget as HTMLElement).classList.remove('over');
            const file = e.dataTransfer?.files[0];
            if (file && parts.allows(e)) void model.choose(file);
          }}
        >
          <label for="restore-file">Drop the file here, or choose it</label>
          <input
            id="restore-file"
            type="file"
            accept=".age,.env,text/plain,application/octet-stream"
            ?disabled=${model.state.busy}
            @change=${(e: Event) => {
              const input = e.target as HTMLInputElement;
              const file = input.files?.[0];
              input.value = '';
              if (file && parts.allows(e)) void model.choose(file);
            }}
          />
        </div>
        <div class="actions">${cancel}</div>`;
    case 'restore-passphrase':
      return html`<p>
          ${model.state.fileName ?? 'The file'} is an age file, to restore into the SLICC site ${site}. Enter the passphrase it was
          encrypted with.
        </p>
        <form @submit=${(e: SubmitEvent) => parts.submit(e, (f) => model.decrypt(f.get('backup-passphrase') ?? ''))}>
          ${parts.field('backup-passphrase', 'Backup passphrase', 'off')}
          <div class="actions">${parts.submitButton('Decrypt and check')} ${cancel}</div>
        </form>`;
    case 'restore-preview':
      return model.state.preview ? preview(model, model.state.preview, parts, cancel) : nothing;
    default:
      return nothing;
  }
}

function preview(model: BackupModel, p: PreviewView, parts: Parts, cancel: unknown) {
  const moved = p.items.filter((i) => i.placeholderWas && i.status !== 'invalid');
  const writes = p.added + p.replaced + p.broughtBack;
  return html`<p>
      ${p.fileName} into <code>${model.state.site ?? ''}</code>: ${p.added} new, ${p.replaced} replacing a value here,${p.broughtBack ? ` ${p.broughtBack} brought back from removed,` : ''}
      ${p.items.filter((i) => i.status === 'unchanged').length} unchanged, ${p.items.filter((i) => i.status === 'invalid').length + p.invalidLines.length} invalid.
    </p>
    ${p.otherNamespace ? html`<p><strong>This backup is of another site, ${p.otherNamespace}.</strong> Its secrets are restored into this one.</p>` : nothing}
    <div class="list" tabindex="0" role="region" aria-label="Records in the file">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Kind</th>
            <th scope="col">Restoring</th>
          </tr>
        </thead>
        <tbody>
          ${p.items.map(
            (i) => html`<tr data-status=${i.status}>
              <td><code>${i.name}</code></td>
              <td>${i.kind ?? '—'}</td>
              <td>${STATUS[i.status]}${i.removed && i.status === 'new' ? ' (removed, as in the backup)' : ''}${i.reason ? html`: ${i.reason}` : nothing}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>
    ${
      p.invalidLines.length
        ? html`<p>Lines that aren't <code>NAME=value</code>, left out:</p>
          <ul>
            ${p.invalidLines.map((line) => html`<li>${line}</li>`)}
          </ul>`
        : nothing
    }
    ${
      moved.length
        ? html`<p>These placeholders are taken in this vault, so they get new ones. Change these <code>[secrets]</code> entries in
            <code>/etc/fnox/config.toml</code>:</p>
          <ul>
            ${moved.map((i) => html`<li><code>${i.name}</code>: <code>${i.placeholderWas}</code> becomes <code>${i.placeholder}</code></li>`)}
          </ul>`
        : nothing
    }
    <div class="actions">
      ${writes > 0 ? parts.button(`Restore ${writes} record${writes === 1 ? '' : 's'}`, () => model.confirm(), 'accent') : html`<p class="note">Nothing to restore.</p>`}
      ${cancel}
    </div>`;
}

// One kernel file in the policy panel: its text, and what `kernel.attest` would report about it
// (owner, mode, parents, the kernel's users mode, the root file system), each editable to see
// the vault's trust warnings. It edits a `FileChoice` and announces each change.
import { LitElement, css, html } from 'lit';
import type { FileChoice, ParentChoice } from './attest.ts';
import { panelStyles } from './styles.ts';

export class AttestFile extends LitElement {
  static override properties = { choice: { attribute: false }, include: { attribute: false } };
  declare choice: FileChoice;
  declare include: boolean;
  static override styles = [
    ...panelStyles,
    css`
      input.num {
        inline-size: 6em;
      }
      td input {
        inline-size: 6em;
      }
      textarea {
        min-block-size: 19em;
      }
    `,
  ];

  private set(patch: Partial<FileChoice>) {
    this.choice = { ...this.choice, ...patch };
    this.dispatchEvent(new CustomEvent('choice', { detail: this.choice }));
  }

  private setParent(i: number, patch: Partial<ParentChoice>) {
    this.set({ parents: this.choice.parents.map((p, j) => (i === j ? { ...p, ...patch } : p)) });
  }

  override render() {
    const c = this.choice;
    const num = (e: Event) => Number((e.target as HTMLInputElement).value);
    const str = (e: Event) => (e.target as HTMLInputElement).value;
    return html`
      <h3>
        <label class="check"
          ><input type="checkbox" .checked=${this.include} @change=${(e: Event) => this.dispatchEvent(new CustomEvent('include', { detail: (e.target as HTMLInputElement).checked }))} />
          Send <code id="path">${c.path}</code></label
        >
      </h3>
      <textarea aria-labelledby="path" spellcheck="false" .value=${c.text} @input=${(e: Event) => this.set({ text: str(e) })}></textarea>
      <div class="row">
        <label>uid<input class="num" type="number" .value=${String(c.uid)} @change=${(e: Event) => this.set({ uid: num(e) })} /></label>
        <label>gid<input class="num" type="number" .value=${String(c.gid)} @change=${(e: Event) => this.set({ gid: num(e) })} /></label>
        <label>mode (octal)<input class="num mono" .value=${c.mode} @change=${(e: Event) => this.set({ mode: str(e) })} /></label>
        <label>kernel users<select .value=${c.users} @change=${(e: Event) => this.set({ users: str(e) as FileChoice['users'] })}>
          <option>enforce</option><option>report</option><option>off</option>
        </select></label>
        <label class="check"><input type="checkbox" .checked=${c.onRootFs} @change=${(e: Event) => this.set({ onRootFs: (e.target as HTMLInputElement).checked })} />on the root fs</label>
        <label class="check"><input type="checkbox" .checked=${c.wrongSha256} @change=${(e: Event) => this.set({ wrongSha256: (e.target as HTMLInputElement).checked })} />claim a wrong sha256</label>
      </div>
      <table>
        <thead><tr><th>parent directory</th><th id="parent-uid">uid</th><th id="parent-mode">mode (octal)</th></tr></thead>
        <tbody>
          ${c.parents.map(
            (p, i) => html`<tr>
              <td><code id="parent-${i}">${p.path}</code></td>
              <td><input type="number" aria-labelledby="parent-uid parent-${i}" .value=${String(p.uid)} @change=${(e: Event) => this.setParent(i, { uid: num(e) })} /></td>
              <td><input class="mono" aria-labelledby="parent-mode parent-${i}" .value=${p.mode} @change=${(e: Event) => this.setParent(i, { mode: str(e) })} /></td>
            </tr>`,
          )}
        </tbody>
      </table>
    `;
  }
}

customElements.define('demo-attest-file', AttestFile);

// The demo's one link to the vault: the package's client (src/client/, `@ai-ecoverse/slicc-vault/client`),
// as any embedder would use it, and the demo's ways of telling its errors. It never imports the vault's modules.
import { html, nothing } from 'lit';
import { VaultError } from '../src/client/index.ts';

export { VaultAgent as AgentPort, type Vault as PagePort, VaultButton, VaultError, connect } from '../src/client/index.ts';

/** The message of anything thrown, with the vault's code, for the developer's panels (`EACCES: …`). */
export const explain = (error: unknown) =>
  error instanceof VaultError ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);

/** The message of anything thrown in plain words, for the person's panels: a sentence, no code. */
export function plain(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The vault's code of an error (`EACCES`), for a tooltip where a developer looks; '' for others. */
export const codeOf = (error: unknown) => (error instanceof VaultError ? error.code : '');

/** The tooltip that names the vault's code, or none. */
export const codeTip = (code: string) => (code ? `the vault's code: ${code}` : nothing);

/** A person's error line: the sentence, the code only in its tooltip; nothing when there is no error. */
export const problem = (error: unknown) =>
  error == null || error === '' ? nothing : html`<p class="warn error" role="alert" title=${codeTip(codeOf(error))}>${plain(error)}</p>`;

/** The same error told another way (what to do here), keeping its code for the tooltip. */
export const retold = (error: unknown, message: string) => (error instanceof VaultError ? new VaultError(error.code, message) : new Error(message));

// What the popup's screens draw with (README, Key store and lock: the popup), so the lock's and
// the backups' screens look and behave alike: Spectrum buttons, password fields, and forms whose
// fields go straight to an intent and are cleared at once.
import { html } from 'lit';

export interface Parts {
  /** A button; `whileBusy` keeps it pressable while the popup works (Cancel and Lock now, during a stoppable job). */
  button(label: string, intent: () => unknown, variant?: string, treatment?: string, whileBusy?: boolean): unknown;
  submitButton(label: string, variant?: string): unknown;
  field(name: string, label: string, autocomplete: string): unknown;
  submit(event: SubmitEvent, intent: (fields: { get(name: string): string | undefined }) => Promise<void>): void;
}

/** The parts, disabled while `busy()` says the popup is working. */
export function popupParts(busy: () => boolean): Parts {
  return {
    button: (label, intent, variant = 'secondary', treatment = 'fill', whileBusy = false) => html`<button
      type="button"
      class="spectrum-Button spectrum-Button--${treatment} spectrum-Button--${variant} spectrum-Button--sizeM"
      ?disabled=${busy() && !whileBusy}
      @click=${() => void intent()}
    >
      <span class="spectrum-Button-label">${label}</span>
    </button>`,
    submitButton: (label, variant = 'accent') =>
      html`<button type="submit" class="spectrum-Button spectrum-Button--fill spectrum-Button--${variant} spectrum-Button--sizeM" ?disabled=${busy()}>
        <span class="spectrum-Button-label">${label}</span>
      </button>`,
    field: (name, label, autocomplete) => html`<label for=${name}>${label}</label>
      <input id=${name} name=${name} type="password" autocomplete=${autocomplete} required />`,
    // Hands the form's fields to the intent and clears them at once: nothing stays in the page.
    submit: (event, intent) => {
      event.preventDefault();
      const form = event.target as HTMLFormElement;
      const data = new FormData(form);
      form.reset();
      void intent({ get: (name) => (data.get(name) as string | null) ?? undefined });
    },
  };
}

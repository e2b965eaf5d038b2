// What the popup's and the panel's screens draw with (README, Key store and lock: the popup), so the
// lock's and the backups' screens look and behave alike: Spectrum buttons, password fields, and forms
// whose fields go straight to an intent and are cleared at once. Every intent passes the document's
// guard first: the panel's takes only the person's own input, and none while it is covered.
import { html } from 'lit';

export interface Parts {
  /** A button; `whileBusy` keeps it pressable while the popup works (Cancel and Lock now, during a stoppable job) or is covered. */
  button(label: string, intent: () => unknown, variant?: string, treatment?: string, whileBusy?: boolean): unknown;
  submitButton(label: string, variant?: string): unknown;
  field(name: string, label: string, autocomplete: string): unknown;
  submit(event: SubmitEvent, intent: (fields: { get(name: string): string | undefined }) => Promise<void>): void;
  /** Whether an event (a change, a drop) may act: the person's own, and the document not covered. */
  allows(event: Event): boolean;
}

/** What a document lets act (the panel: components/panel-frame.ts). */
export interface Guard {
  /** Whether the event is the person's own input. */
  trusted(event: Event): boolean;
  /** Whether something covers the document now, so no passphrase, passkey or choice is taken. */
  readonly covered: boolean;
}

/** The popup's guard: a top-level window of the vault origin, which nobody else can script or cover. */
export const OPEN: Guard = { trusted: () => true, covered: false };

/** The parts, disabled while `busy()` says the popup is working or the guard says it is covered. */
export function popupParts(busy: () => boolean, guard: Guard = OPEN): Parts {
  const refused = () => busy() || guard.covered;
  return {
    button: (label, intent, variant = 'secondary', treatment = 'fill', whileBusy = false) => html`<button
      type="button"
      class="spectrum-Button spectrum-Button--${treatment} spectrum-Button--${variant} spectrum-Button--sizeM"
      ?disabled=${refused() && !whileBusy}
      @click=${(event: Event) => {
        if (guard.trusted(event)) void intent();
      }}
    >
      <span class="spectrum-Button-label">${label}</span>
    </button>`,
    submitButton: (label, variant = 'accent') =>
      html`<button type="submit" class="spectrum-Button spectrum-Button--fill spectrum-Button--${variant} spectrum-Button--sizeM" ?disabled=${refused()}>
        <span class="spectrum-Button-label">${label}</span>
      </button>`,
    field: (name, label, autocomplete) => html`<label for=${name}>${label}</label>
      <input id=${name} name=${name} type="password" autocomplete=${autocomplete} required ?disabled=${guard.covered} />`,
    // Hands the form's fields to the intent and clears them at once: nothing stays in the page.
    submit: (event, intent) => {
      event.preventDefault();
      const form = event.target as HTMLFormElement;
      const data = new FormData(form);
      form.reset();
      if (!guard.trusted(event) || guard.covered) return;
      void intent({ get: (name) => (data.get(name) as string | null) ?? undefined });
    },
    allows: (event) => guard.trusted(event) && !guard.covered,
  };
}

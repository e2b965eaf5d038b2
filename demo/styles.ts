// The demo's look: Spectrum tokens and buttons, and a few shared rules every panel adopts.
import { css } from 'lit';
import { button, tokens } from '../components/spectrum.styles.ts';

/** For the app's root, which carries `spectrum spectrum--light spectrum--medium`. */
export const tokenSheets = [tokens];

/** What every panel adopts: Spectrum's button and the demo's forms, tables and badges. */
export const panelStyles = [
  button,
  css`
    :host {
      display: block;
      color: var(--spectrum-neutral-content-color-default, #222);
    }
    :host([hidden]) {
      display: none;
    }
    h2 {
      margin: 0 0 var(--spectrum-spacing-200, 8px);
      font-size: var(--spectrum-font-size-400, 20px);
      color: var(--spectrum-heading-color, #111);
    }
    h2 code,
    h3 code {
      font-size: inherit;
    }
    h3 {
      margin: var(--spectrum-spacing-400, 16px) 0 var(--spectrum-spacing-100, 4px);
      font-size: var(--spectrum-font-size-200, 16px);
      color: var(--spectrum-heading-color, #111);
    }
    p.hint {
      margin: 0 0 var(--spectrum-spacing-200, 8px);
      color: var(--spectrum-neutral-subdued-content-color-default, #555);
    }
    details.legend {
      margin-block-start: var(--spectrum-spacing-300, 12px);
      font-size: var(--spectrum-font-size-75, 12px);
      color: var(--spectrum-neutral-subdued-content-color-default, #555);
    }
    details.legend dl {
      display: grid;
      grid-template-columns: max-content 1fr;
      gap: 4px 12px;
      margin: 8px 0 0;
    }
    details.legend dd {
      margin: 0;
    }
    section.card {
      background: var(--spectrum-background-layer-2-color, #fff);
      border: 1px solid var(--spectrum-gray-200, #e1e1e1);
      border-radius: var(--spectrum-corner-radius-200, 8px);
      padding: var(--spectrum-spacing-400, 16px);
      margin-block-end: var(--spectrum-spacing-400, 16px);
    }
    label {
      display: inline-flex;
      flex-direction: column;
      gap: 2px;
      font-size: var(--spectrum-font-size-75, 12px);
      color: var(--spectrum-neutral-subdued-content-color-default, #555);
    }
    label.block {
      display: flex;
    }
    label.check {
      flex-direction: row;
      align-items: center;
      gap: 6px;
      font-size: var(--spectrum-font-size-100, 14px);
      color: inherit;
    }
    input:not([type='checkbox']),
    select,
    textarea {
      box-sizing: border-box;
      padding: 5px 8px;
      border: 1px solid var(--spectrum-gray-400, #b1b1b1);
      border-radius: var(--spectrum-corner-radius-100, 4px);
      background: var(--spectrum-gray-50, #fff);
      color: inherit;
      font: inherit;
      font-size: var(--spectrum-font-size-100, 14px);
      min-block-size: 32px;
    }
    textarea,
    pre,
    code,
    .mono {
      font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
      font-size: 12.5px;
    }
    textarea {
      inline-size: 100%;
      min-block-size: 9em;
      resize: vertical;
    }
    input:focus-visible,
    select:focus-visible,
    textarea:focus-visible {
      outline: 2px solid var(--spectrum-focus-indicator-color, #4b75ff);
      outline-offset: 1px;
    }
    .row {
      display: flex;
      flex-wrap: wrap;
      gap: var(--spectrum-spacing-200, 8px);
      align-items: end;
      margin-block: var(--spectrum-spacing-200, 8px);
    }
    .grow {
      flex: 1 1 12em;
    }
    .grow > input,
    .grow > select {
      inline-size: 100%;
    }
    .columns {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(22em, 1fr));
      gap: var(--spectrum-spacing-400, 16px);
    }
    table {
      inline-size: 100%;
      border-collapse: collapse;
    }
    th,
    td {
      text-align: start;
      vertical-align: top;
      padding: 6px 8px;
      border-block-end: 1px solid var(--spectrum-gray-200, #e1e1e1);
    }
    th {
      font-size: var(--spectrum-font-size-75, 12px);
      font-weight: 600;
      color: var(--spectrum-neutral-subdued-content-color-default, #555);
    }
    pre {
      margin: 0;
      padding: var(--spectrum-spacing-200, 8px);
      border-radius: var(--spectrum-corner-radius-100, 4px);
      background: var(--spectrum-gray-100, #f5f5f5);
      white-space: pre-wrap;
      overflow-wrap: anywhere;
      max-block-size: 24em;
      overflow: auto;
    }
    .badge {
      display: inline-block;
      padding: 0 8px;
      border-radius: 10px;
      font-size: var(--spectrum-font-size-75, 12px);
      line-height: 20px;
      background: var(--spectrum-gray-200, #e1e1e1);
    }
    .badge.active,
    .badge.accepted,
    .badge.inject {
      background: var(--spectrum-positive-background-color-default, #007a4d);
      color: #fff;
    }
    .badge.removed,
    .badge.refused,
    .badge.refuse {
      background: var(--spectrum-negative-background-color-default, #d31510);
      color: #fff;
    }
    .badge.inert {
      background: var(--spectrum-gray-300, #d5d5d5);
    }
    .badge.credential {
      background: var(--spectrum-informative-background-color-default, #5258e4);
      color: #fff;
    }
    /* A wide table scrolls inside its card rather than pushing the page wider. */
    .scroll {
      overflow-x: auto;
    }
    .error {
      color: var(--spectrum-negative-content-color-default, #b40000);
    }
    .warn {
      margin: 4px 0;
      padding: 6px 10px;
      border-inline-start: 4px solid var(--spectrum-notice-visual-color, #e68619);
      background: var(--spectrum-gray-100, #f5f5f5);
    }
    .ok {
      margin: 4px 0;
      padding: 6px 10px;
      border-inline-start: 4px solid var(--spectrum-positive-visual-color, #2d9d78);
      background: var(--spectrum-gray-100, #f5f5f5);
    }
    .nowrap {
      white-space: nowrap;
    }
    .muted {
      color: var(--spectrum-neutral-subdued-content-color-default, #666);
    }
    .spectrum-Button {
      flex: none;
    }
  `,
];

// The lock popup's and the panel's own styles (README, Key store and lock: the popup), beside Spectrum's sheets.
import { css } from 'lit';

export const popupStyles = css`
      :host {
        display: block;
        block-size: 100%;
      }
      .spectrum {
        box-sizing: border-box;
        min-block-size: 100%;
        padding: var(--spectrum-spacing-500);
        background: var(--spectrum-background-layer-1-color);
        color: var(--spectrum-neutral-content-color-default);
        font-family: var(--spectrum-sans-font-family-stack);
        font-size: var(--spectrum-font-size-100);
        line-height: 1.5;
      }
      h1 {
        margin: 0 0 var(--spectrum-spacing-300);
        color: var(--spectrum-heading-color);
        font-size: var(--spectrum-font-size-500);
        outline: none;
      }
      p {
        margin: 0 0 var(--spectrum-spacing-300);
      }
      .actions {
        display: flex;
        flex-wrap: wrap;
        gap: var(--spectrum-spacing-200);
        margin-block: var(--spectrum-spacing-300);
      }
      form {
        margin-block: var(--spectrum-spacing-300);
      }
      label {
        display: block;
        margin-block-end: var(--spectrum-spacing-75);
        color: var(--spectrum-neutral-subdued-content-color-default);
        font-size: var(--spectrum-font-size-75);
      }
      input,
      select {
        box-sizing: border-box;
        inline-size: 100%;
        margin-block-end: var(--spectrum-spacing-300);
        padding: var(--spectrum-spacing-100);
        border: var(--spectrum-border-width-100) solid var(--spectrum-gray-600);
        border-radius: var(--spectrum-corner-radius-100);
        background: var(--spectrum-gray-50);
        color: var(--spectrum-neutral-content-color-default);
        font: inherit;
      }
      input:focus-visible,
      select:focus-visible {
        outline: var(--spectrum-focus-indicator-thickness, 2px) solid var(--spectrum-focus-indicator-color);
        outline-offset: 1px;
      }
      .outcome {
        margin-block: var(--spectrum-spacing-300);
        padding: var(--spectrum-spacing-200);
        border-inline-start: var(--spectrum-border-width-400) solid;
        background: var(--spectrum-gray-100);
      }
      .outcome.success {
        border-color: var(--spectrum-positive-visual-color);
      }
      .outcome.error {
        border-color: var(--spectrum-negative-visual-color);
      }
      .site {
        color: var(--spectrum-neutral-subdued-content-color-default);
        font-size: var(--spectrum-font-size-75);
      }
      .site code {
        overflow-wrap: anywhere;
      }
      .actions.close {
        padding-block-start: var(--spectrum-spacing-300);
        border-block-start: var(--spectrum-border-width-100) solid var(--spectrum-gray-300);
      }
      .or {
        color: var(--spectrum-neutral-subdued-content-color-default);
      }
    `;

// Spectrum CSS for the lock's elements: the tokens (light, dark, medium, large) and the button,
// adopted into each shadow root. The wrapper carries `spectrum spectrum--<theme> spectrum--<scale>`.
import { button, tokens } from './spectrum.styles.ts';

export type Theme = 'light' | 'dark';
export type Scale = 'medium' | 'large';
export const spectrumSheets = [tokens, button];
export const spectrumClass = (theme: Theme, scale: Scale) => `spectrum spectrum--${theme} spectrum--${scale}`;

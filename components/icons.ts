// The lock's icons: 18×18 workflow-style glyphs, drawn with currentColor.
import { svg } from 'lit';

export const icons = {
  locked: svg`<path d="M14 8h-1V5.5a4 4 0 0 0-8 0V8H4a1 1 0 0 0-1 1v7a1 1 0 0 0 1 1h10a1 1 0 0 0 1-1V9a1 1 0 0 0-1-1ZM7 5.5a2 2 0 0 1 4 0V8H7Zm3 7.7V14a1 1 0 0 1-2 0v-.8a1.5 1.5 0 1 1 2 0Z"/>`,
  ready: svg`<path d="M14 8H7V5.5a2 2 0 0 1 3.9-.6 1 1 0 0 0 1.9-.6A4 4 0 0 0 5 5.5V8H4a1 1 0 0 0-1 1v7a1 1 0 0 0 1 1h10a1 1 0 0 0 1-1V9a1 1 0 0 0-1-1Zm-4 5.2V14a1 1 0 0 1-2 0v-.8a1.5 1.5 0 1 1 2 0Z"/>`,
  waiting: svg`<path d="M9 1.5a7.5 7.5 0 1 0 7.5 7.5A7.5 7.5 0 0 0 9 1.5Zm0 13.2A5.7 5.7 0 1 1 14.7 9 5.7 5.7 0 0 1 9 14.7Zm.9-9.7H8.1v4.4l3.4 2.1.9-1.5-2.5-1.5Z"/>`,
  connecting: svg`<circle cx="3.5" cy="9" r="1.7"/><circle cx="9" cy="9" r="1.7"/><circle cx="14.5" cy="9" r="1.7"/>`,
  blocked: svg`<path d="M17.1 14.9 10.3 2.3a1.5 1.5 0 0 0-2.6 0L.9 14.9A1.5 1.5 0 0 0 2.2 17h13.6a1.5 1.5 0 0 0 1.3-2.1ZM10 14.5a.5.5 0 0 1-.5.5h-1a.5.5 0 0 1-.5-.5v-1a.5.5 0 0 1 .5-.5h1a.5.5 0 0 1 .5.5Zm0-3a.5.5 0 0 1-.5.5h-1a.5.5 0 0 1-.5-.5v-5a.5.5 0 0 1 .5-.5h1a.5.5 0 0 1 .5.5Z"/>`,
} as const;

/** The origins the test runner serves (web-test-runner.config.mjs): all same-site, each its own origin. */
export interface Origins {
  /** The test page's own origin: an allowed embedder. */
  embedder: string;
  /** The vault's origin. */
  vault: string;
  /** A second allowed embedder origin (another namespace). */
  other: string;
  /** An origin `embedders.json` doesn't allow. */
  stranger: string;
  /** A vault whose `embedders.json` is malformed. */
  broken: string;
}

export const origins: Origins = await (await fetch('/__origins.json')).json();

// Marks a test, or a describe, names itself with to skip in one engine, with the reason
// (web-test-runner.config.mjs: `(not in <engine>: <reason>)`; `(Chromium only)` skips in the other two).

/**
 * The lock popup is a top-level vault document; WebKit keys a framed vault's storage and channels to
 * its embedder, so there the popup never sees the frames (GAPS section 22).
 */
export const POPUP_NOT_IN_WEBKIT = "(not in WebKit: popup can't reach the frames in WebKit: the panel serves there)";

// CSS module scripts (`import sheet from '….css' with { type: 'css' }`): Chromium loads them natively
// in development; scripts/build.mjs bundles them as constructed style sheets for dist/.
declare module '*.css' {
  const sheet: CSSStyleSheet;
  export default sheet;
}

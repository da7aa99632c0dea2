/**
 * The build's stylesheets do not hold back the first paint: index.html paints its boot screen
 * (styled inline) as soon as it arrives, and the app's stylesheets load beside its scripts. Each
 * `<link rel="stylesheet">` the build writes into index.html gets `media="print"` (a stylesheet
 * that does not apply to the screen is not render-blocking, but is fetched last: a preload beside
 * it keeps it at a stylesheet's priority) and `data-app-style`; the entry
 * (src/main.tsx, `applyAppStyles`) waits for them and switches them to every medium before the
 * app renders, so no screen of the app is ever painted without its styles. The Content-Security-
 * Policy allows no inline script, hence no `onload` attribute.
 */
import type { Plugin } from 'vite';

export function stylesAfterPaintPlugin(): Plugin {
  return {
    name: 'bourse-styles-after-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html.replace(
          /<link rel="stylesheet"([^>]*)>/g,
          '<link rel="preload" as="style"$1>\n    <link rel="stylesheet" media="print" data-app-style$1>',
        ),
    },
  };
}

/**
 * Shows an operator's rich text. The HTML is the server's sanitiser's output (lib/rich-text.ts:
 * an allow-list of elements, no script, style or event handler, links only http(s) and mailto),
 * so it is inserted as it is; links open outside the app.
 */
export function RichHtml({ html, testId }: { html: string; testId?: string }) {
  return (
    <div
      className="rich-html"
      data-testid={testId}
      // Sanitised on the server before it was stored (see above).
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

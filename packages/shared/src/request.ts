/**
 * How the browser clients (apps/web and apps/admin src/api/client.ts) send a call: the headers
 * every call carries and a POST body in the encoding its route names. What each client does with
 * the answer (the spec's error catalogue, the console's refusals) is its own.
 */

/** The headers of a call: JSON answers, in `language`, for the session of `token` when there is one. */
export function requestHeaders(
  language: { id: number; bcp47: string },
  token: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': language.bcp47,
    LanguageId: String(language.id),
  };
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** A POST body: JSON, or a form encoded by `form`; its Content-Type goes into `headers`. */
export function requestBody(
  headers: Record<string, string>,
  json: boolean,
  values: Record<string, unknown>,
  form: (values: Record<string, unknown>) => string,
): string {
  headers['Content-Type'] = json
    ? 'application/json'
    : 'application/x-www-form-urlencoded;charset=UTF-8';
  return json ? JSON.stringify(values) : form(values);
}

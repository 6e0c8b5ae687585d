/**
 * Form routes: the POST handler every app writes around its own work. A person fills in a form on a signed-in page;
 * the route reads the body (size-limited), runs the app's handler and answers `303 See Other` to the path it
 * returns. When the handler throws the app's refusal (its error class: a value the person should correct; nothing was
 * written), the answer is a 303 back to the form's page with the signed message (`withQuery`'s `error`), or, for a
 * JSON client, `{error, field?}`. Every form route is idempotent (@persona/platform/once): the form's `_idem` token
 * (or an `Idempotency-Key` header) runs it once, a repeat replays the first answer.
 *
 * An app states what differs once (`formPoster({...})` in its lib/http.ts: who is signed in, its refusal class, how
 * strictly a body is read, what an unreadable body gets) and each route only its handler and where a refusal goes.
 */
import type { NextRequest } from "next/server";
import { BadRequest, field, json, jsonError, readForm, safePath, seeOther, withQuery } from "./http";
import { idempotent } from "./once";

/** The error class an app throws for a refusal the person should read (`instanceof` selects it). Constructed with a
 * message alone only for `unreadable: "failed"`. */
export type RefusalClass<E extends Error> = new (message: string, ...rest: never[]) => E;

/** What answers a body that is not a form (a BadRequest of the reader, or of the handler: a malformed request):
 * - `"json"`: its status (400, 413 when too large) with `{error, field?}`;
 * - `"failed"`: 303 to the route's `failed` with the app's refusal of that message and an empty form;
 * - a path: 303 to it with the signed message (`?error=`). */
export type Unreadable = "json" | "failed" | string;

/** What an app sets once for all its form routes (see formRoute). `F` is what `read` makes of the body. */
export interface FormApp<U extends { id: number | string }, E extends Error, F = FormData> {
  /** The signed-in user of a request, or null. */
  user: (req: NextRequest) => U | null;
  /** The app's refusal class. */
  refusal: RefusalClass<E>;
  /** Other errors the app answers as a refusal, turned into one (a declined card: "Your card was not charged: ..."); null: not a refusal. */
  alsoRefused?: (e: unknown) => E | null;
  /** Reads the body (default readForm: urlencoded or multipart, at most MAX_BODY_BYTES); throws BadRequest. */
  read?: (req: NextRequest) => Promise<F>;
  /** Where a signed-out person goes (default "/login"). A path is answered before the body is read; a function of
   * the read body after it (the body says where to come back to). */
  signedOut?: string | ((body: F) => string);
  /** The message of the 401 a signed-out JSON client gets (default "Sign in first."). */
  signInFirst?: string;
  /** Whether this request gets JSON answers (401 `Sign in first.`, `{ok: true, next}`, `{error, field?}` with the
   * refusal's status) instead of redirects; default never. See acceptsJson. */
  json?: (req: NextRequest) => boolean;
  /** What a body that is not a form gets (see Unreadable); default "/". A JSON client always gets "json". */
  unreadable?: Unreadable;
  /** Idempotent per (route, user, token)? Default true. */
  once?: boolean;
  /** Largest body read for the idempotency key (bytes; default the platform's MAX_BODY_BYTES). */
  maxBytes?: number;
}

/** One route: its handler and where a refusal goes. */
export interface FormRouteSpec<U, E extends Error, F = FormData> {
  /** The work: returns the path to answer 303 to (JSON: `{ok: true, next}`), or a whole Response. Throws the app's
   * refusal (nothing written) for a value the person should correct. */
  act: (user: U, body: F, req: NextRequest) => Promise<string | Response> | string | Response;
  /** The path a refusal answers 303 to (usually the form's page; withQuery signs the message). Without it, refusals
   * are not caught here. */
  failed?: (e: E, body: F, req: NextRequest) => string;
}

/** True when the client asked for JSON (`Accept` names application/json). */
export function acceptsJson(req: Request): boolean {
  return (req.headers.get("accept") ?? "").includes("application/json");
}

function refusalAnswer(e: Error & { field?: unknown; status?: unknown }): Response {
  const field = typeof e.field === "string" && e.field ? e.field : undefined;
  return jsonError(e.message, typeof e.status === "number" ? e.status : 400, field);
}

/**
 * The POST handler of a form route (see the module docstring). In order: signed out answers `signedOut` (JSON: 401);
 * the body is read (`read`), a BadRequest answered by `unreadable` (a refusal thrown while reading, say a JSON value
 * of the wrong type, by its JSON error); `act` runs and its path is answered 303 (JSON:
 * `{ok: true, next}`) or its Response given as is; a refusal (the app's class, or `alsoRefused`) answers 303 to
 * `failed(e, body, req)` (JSON: its status, 400 by default, with `{error, field?}`); a BadRequest from `act` is
 * answered like an unreadable body. Any other error is not caught (a 500). Idempotent unless `once` is false.
 */
export function formRoute<U extends { id: number | string }, E extends Error, F = FormData>(
  spec: FormApp<U, E, F> & FormRouteSpec<U, E, F>,
): (req: NextRequest) => Promise<Response> {
  const { user: userOf, refusal, alsoRefused, act, failed } = spec;
  const read = spec.read ?? ((req: NextRequest) => readForm(req) as unknown as Promise<F>);
  const signedOut = spec.signedOut ?? "/login";
  const wantsJson = spec.json ?? (() => false);
  const signInFirst = () => jsonError(spec.signInFirst ?? "Sign in first.", 401);
  const unreadable = spec.unreadable ?? "/";
  const refused = (e: unknown): E | null => (e instanceof refusal ? e : alsoRefused ? alsoRefused(e) : null);

  async function POST(req: NextRequest): Promise<Response> {
    const asJson = wantsJson(req);
    const user = userOf(req);
    if (!user && typeof signedOut === "string") return asJson ? signInFirst() : seeOther(signedOut);
    const badRequest = (e: BadRequest): Response => {
      if (asJson || unreadable === "json") return refusalAnswer(e);
      if (unreadable === "failed" && failed) return seeOther(failed(new refusal(e.message), new FormData() as unknown as F, req));
      return seeOther(withQuery(unreadable, { error: e.message }));
    };
    let body: F;
    try {
      body = await read(req);
    } catch (e) {
      if (e instanceof BadRequest) return badRequest(e);
      const r = refused(e);
      if (r) return refusalAnswer(r);
      throw e;
    }
    if (!user) return asJson ? signInFirst() : seeOther((signedOut as (body: F) => string)(body));
    try {
      const next = await act(user, body, req);
      if (next instanceof Response) return next;
      return asJson ? json({ ok: true, next }) : seeOther(next);
    } catch (e) {
      if (e instanceof BadRequest) return badRequest(e);
      const r = failed ? refused(e) : null;
      if (r && failed) return asJson ? refusalAnswer(r) : seeOther(failed(r, body, req));
      throw e;
    }
  }
  if (spec.once === false) return POST;
  return idempotent(POST, { user: (req) => userOf(req)?.id, maxBytes: spec.maxBytes });
}

/** The form routes of one app: `formPoster(app)(route)` is `formRoute({...app, ...route})`. */
export function formPoster<U extends { id: number | string }, E extends Error, F = FormData>(app: FormApp<U, E, F>) {
  return (route: FormRouteSpec<U, E, F> & Partial<FormApp<U, E, F>>) => formRoute<U, E, F>({ ...app, ...route });
}

/** Where a form goes back to: its `back` field when that is a same-origin path (safePath), else `fallback`. */
export function backField(form: FormData, fallback: string): string {
  return safePath(field(form, "back"), fallback);
}

/** The named text fields of a form ("" for one absent or a file), as a record by name. */
export function fieldsOf<F extends string>(form: FormData, names: readonly F[]): Record<F, string> {
  return Object.fromEntries(names.map((name) => [name, field(form, name)])) as Record<F, string>;
}

/**
 * The first of `values` (in their order) longer than its cap, as the sentence a person reads, `${words(name)} is too
 * long: at most ${cap} characters.` ("The title is too long: at most 200 characters."), and the field's name; null
 * when all fit. `capOf(name)` is a field's cap (characters); `size(name, value)` how a value is counted (default
 * UTF-16 units, what a browser's `maxlength` counts). A route checks caps before any other work.
 */
export function overCap(
  values: Record<string, string>,
  capOf: (name: string) => number,
  words: (name: string) => string,
  size: (name: string, value: string) => number = (_name, value) => value.length,
): { message: string; field: string } | null {
  for (const [name, value] of Object.entries(values)) {
    const cap = capOf(name);
    if (value.length > cap && size(name, value) > cap) return { message: `${words(name)} is too long: at most ${cap} characters.`, field: name };
  }
  return null;
}

/**
 * Where a form goes back to with a notice or an error: `path` (a same-origin path, safePath; else `fallback`) with
 * `params` merged into its own query, less any old `error`/`es` and the `drop` keys. Built with withQuery, so an
 * `error` is signed and each value capped. The path's `#fragment` is kept when `keepHash`, else dropped.
 */
export function backWith(
  path: string,
  params: Record<string, string | number | null | undefined>,
  { drop = [], fallback = "/", keepHash = false }: { drop?: readonly string[]; fallback?: string; keepHash?: boolean } = {},
): string {
  const u = new URL(safePath(path, fallback), "http://app.invalid");
  for (const k of ["error", "es", ...drop]) u.searchParams.delete(k);
  return `${withQuery(u.pathname, { ...Object.fromEntries(u.searchParams.entries()), ...params })}${keepHash ? u.hash : ""}`;
}

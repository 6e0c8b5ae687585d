import { redirect } from "next/navigation";
import type { InputHTMLAttributes, ReactNode } from "react";
import { SIGN_IN_LOCKED } from "./session";

/**
 * The sign-in page every app shows at `/login`: the notices (signed out, wrong password, too many attempts) and the
 * form that posts `username`, `password` and `next` to `/api/session` (signInRoute). The page around the form (logo,
 * headings, brand panel), the words and the class names stay the app's own: this module owns only what every
 * sign-in page must do the same way.
 */

/** A page's search parameters, awaited. */
export type SearchParams = Record<string, string | string[] | undefined>;

const one = (v: string | string[] | undefined): string => (Array.isArray(v) ? v[0] : v) ?? "";

/** What a sign-in form says. */
export interface SignInWords {
  username: string;
  password: string;
  submit: string;
  signedOut: string;
  /** Shown for `?error=invalid` (or any error but `locked`). */
  invalid: string;
  /** Shown for `?error=locked` (too many attempts; SIGN_IN_LOCKED). */
  locked: string;
}

/** The platform's words in English and German; an app overrides the ones its product says otherwise. */
export const SIGN_IN_WORDS: Record<"en" | "de", SignInWords> = {
  en: {
    username: "Username",
    password: "Password",
    submit: "Sign in",
    signedOut: "You have signed out.",
    invalid: "That username and password don't match.",
    locked: SIGN_IN_LOCKED.en,
  },
  de: {
    username: "Benutzername",
    password: "Passwort",
    submit: "Anmelden",
    signedOut: "Sie haben sich abgemeldet.",
    invalid: "Benutzername und Passwort passen nicht zusammen.",
    locked: SIGN_IN_LOCKED.de,
  },
};

/** The attributes of the username or password input (id, name, autoComplete, required, ...). */
export type SignInInput = InputHTMLAttributes<HTMLInputElement> & { id: string; name: string };

/** How an app lays out its sign-in form: every part has a plain default, and an app's own look overrides it. */
export interface SignInFormOptions {
  /** Words replacing the language's defaults (SIGN_IN_WORDS). */
  words?: Partial<SignInWords>;
  /** Class of the `<form>`. */
  className?: string;
  /** Notices: class names of a `<p>` (`as: "div"` for a `<div>`), or a render function (an app's Alert). */
  notice?: { ok: string; error: string; as?: "p" | "div" } | ((tone: "ok" | "error", text: string) => ReactNode);
  /** One labelled input (default: `<label>{label}<input/></label>`). */
  field?: (label: string, input: SignInInput) => ReactNode;
  /** The submit button: a class name of a plain `<button>`, or a render function. */
  button?: string | ((label: string) => ReactNode);
  /** Focus the username on load (default true). */
  autoFocus?: boolean;
  /** Placeholder of the username input (an airline's member number format). */
  placeholder?: string;
}

/** The notices and the form of a sign-in page, refilled from `sp` (`username`, `next`, `error`, `signed_out`). */
export function SignInForm({ sp, lang = "en", options = {} }: { sp: SearchParams; lang?: "en" | "de"; options?: SignInFormOptions }) {
  const words = { ...SIGN_IN_WORDS[lang], ...options.words };
  const notice = options.notice ?? { ok: "note", error: "alert" };
  const say =
    typeof notice === "function"
      ? notice
      : (tone: "ok" | "error", text: string) => {
          const Tag = notice.as ?? "p";
          return (
            <Tag className={tone === "ok" ? notice.ok : notice.error} role={tone === "error" ? "alert" : undefined}>
              {text}
            </Tag>
          );
        };
  const field =
    options.field ??
    ((label: string, input: SignInInput) => (
      <label>
        {label}
        <input {...input} />
      </label>
    ));
  const button = options.button;
  const error = one(sp.error);
  return (
    <>
      {one(sp.signed_out) ? say("ok", words.signedOut) : null}
      {error === "locked" ? say("error", words.locked) : error ? say("error", words.invalid) : null}
      <form action="/api/session" method="post" data-testid="login-form" className={options.className}>
        <input type="hidden" name="next" value={one(sp.next)} />
        {field(words.username, {
          id: "username",
          name: "username",
          autoComplete: "username",
          required: true,
          defaultValue: one(sp.username),
          placeholder: options.placeholder,
          autoFocus: options.autoFocus ?? true,
        })}
        {field(words.password, { id: "password", name: "password", type: "password", autoComplete: "current-password", required: true })}
        {typeof button === "function" ? (
          button(words.submit)
        ) : (
          <button type="submit" className={button}>
            {words.submit}
          </button>
        )}
      </form>
    </>
  );
}

/** An app's `/login` page: its layout around the form, where it goes when already signed in, its form's look. */
export interface SignInPageOptions<C> {
  /** Where a signed-in visitor goes instead (default `/`). */
  home?: string;
  /** Words in the persona's language (`context().lang`) rather than English only. */
  localized?: boolean;
  /** The form's look (see SignInFormOptions). */
  form?: SignInFormOptions;
  /** The page around the form (`form`: the notices and the form), given the app's context. */
  layout: (form: ReactNode, ctx: C) => ReactNode;
}

/**
 * The `/login` page component of an app: a signed-in visitor goes to `home`; others see `layout` around the form.
 * Made by `defineApp(...).signInPage(options)` (./app); export it as the page's default.
 */
export function signInPage<U, C extends { lang: "en" | "de" }>(
  currentUser: () => Promise<U | null>,
  context: () => C,
  options: SignInPageOptions<C>,
) {
  return async function SignInPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
    const sp = await searchParams;
    if (await currentUser()) redirect(options.home ?? "/");
    const ctx = context();
    return options.layout(<SignInForm sp={sp} lang={options.localized ? ctx.lang : "en"} options={options.form} />, ctx);
  };
}

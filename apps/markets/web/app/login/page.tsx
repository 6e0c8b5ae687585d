import { redirect } from "next/navigation";
import { Logo } from "@/markets/components/Shell";
import { currentUser } from "@/markets/lib/auth";
import { hunchContext } from "@/markets/lib/context";
import { one, type SearchParams } from "@/markets/lib/params";
import { SIGN_IN_LOCKED } from "@persona/platform/session";

export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  if (await currentUser()) redirect("/");
  const t = hunchContext().t;
  return (
    <div className="hl-login">
      <div className="hl-login-brand">
        <Logo size={40} /> Hunchline
      </div>
      <div className="hl-login-card">
        <h1>{t("Sign in", "Anmelden")}</h1>
        {one(sp.signed_out) ? <p className="hl-note">{t("You have signed out.", "Sie haben sich abgemeldet.")}</p> : null}
        {one(sp.error) === "locked" ? (
          <p className="hl-alert" role="alert">
            {t(SIGN_IN_LOCKED.en, SIGN_IN_LOCKED.de)}
          </p>
        ) : one(sp.error) ? (
          <p className="hl-alert" role="alert">
            {t("That username and password don't match.", "Benutzername und Passwort passen nicht zusammen.")}
          </p>
        ) : null}
        <form action="/api/session" method="post" data-testid="login-form" className="hl-form">
          <input type="hidden" name="next" value={one(sp.next)} />
          <label>
            {t("Username", "Benutzername")}
            <input name="username" autoComplete="username" required defaultValue={one(sp.username)} autoFocus />
          </label>
          <label>
            {t("Password", "Passwort")}
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="hl-btn">
            {t("Sign in", "Anmelden")}
          </button>
        </form>
      </div>
    </div>
  );
}

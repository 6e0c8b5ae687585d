import { redirect } from "next/navigation";
import { Logo } from "@/shop/components/Brand";
import { currentUser } from "@/shop/lib/auth";
import { shopContext } from "@/shop/lib/context";
import { one, type SearchParams } from "@/shop/lib/params";
import { SIGN_IN_LOCKED } from "@persona/platform/session";

export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  if (await currentUser()) redirect("/");
  const t = shopContext().t;
  return (
    <div className="sw-login">
      <div className="sw-login-brand">
        <Logo size={42} />
        Shopwell
      </div>
      <div className="sw-login-card">
        <h1>{t("Sign in", "Anmelden")}</h1>
        {one(sp.signed_out) ? <p className="sw-note">{t("You have signed out.", "Sie haben sich abgemeldet.")}</p> : null}
        {one(sp.error) === "locked" ? (
          <p className="sw-alert" role="alert">
            {t(SIGN_IN_LOCKED.en, SIGN_IN_LOCKED.de)}
          </p>
        ) : one(sp.error) ? (
          <p className="sw-alert" role="alert">
            {t("That username and password don't match.", "Benutzername und Passwort passen nicht zusammen.")}
          </p>
        ) : null}
        <form action="/api/session" method="post" data-testid="login-form" className="sw-form">
          <input type="hidden" name="next" value={one(sp.next)} />
          <label>
            {t("Username", "Benutzername")}
            <input name="username" autoComplete="username" required defaultValue={one(sp.username)} autoFocus />
          </label>
          <label>
            {t("Password", "Passwort")}
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="sw-btn">
            {t("Sign in", "Anmelden")}
          </button>
        </form>
        <p className="sw-small sw-muted">{t("Orders, returns, your wish list and Subscribe & Save in one place.", "Bestellungen, Rücksendungen, Wunschzettel und Spar-Abo an einem Ort.")}</p>
      </div>
    </div>
  );
}

import { redirect } from "next/navigation";
import { Logo } from "@/brokerage/components/Shell";
import { currentUser } from "@/brokerage/lib/auth";
import { brokerContext } from "@/brokerage/lib/context";
import { one, type SearchParams } from "@/brokerage/lib/params";
import { SIGN_IN_LOCKED } from "@persona/platform/session";

export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  if (await currentUser()) redirect("/");
  const t = brokerContext().t;
  return (
    <div className="tw-login">
      <div className="tw-brand">
        <Logo size={42} />
        Tidewell
      </div>
      <div className="tw-login-card">
        <h1>{t("Sign in", "Anmelden")}</h1>
        {one(sp.signed_out) ? <p className="tw-note">{t("You have signed out.", "Sie haben sich abgemeldet.")}</p> : null}
        {one(sp.error) === "locked" ? (
          <p className="tw-alert" role="alert">
            {t(SIGN_IN_LOCKED.en, SIGN_IN_LOCKED.de)}
          </p>
        ) : one(sp.error) ? (
          <p className="tw-alert" role="alert">
            {t("That username and password don't match.", "Benutzername und Passwort passen nicht zusammen.")}
          </p>
        ) : null}
        <form action="/api/session" method="post" data-testid="login-form" className="tw-form">
          <input type="hidden" name="next" value={one(sp.next)} />
          <label>
            {t("Username", "Benutzername")}
            <input name="username" autoComplete="username" required defaultValue={one(sp.username)} autoFocus />
          </label>
          <label>
            {t("Password", "Passwort")}
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="tw-btn">
            {t("Sign in", "Anmelden")}
          </button>
        </form>
        <p className="tw-small tw-muted">{t("Your portfolio, orders, dividends and transfers in one place.", "Depot, Orders, Dividenden und Überweisungen an einem Ort.")}</p>
      </div>
    </div>
  );
}

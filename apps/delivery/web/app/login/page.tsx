import { redirect } from "next/navigation";
import { Logo } from "@/delivery/components/Logo";
import { currentUser } from "@/delivery/lib/auth";
import { one, type SearchParams } from "@/delivery/lib/page";
import { SIGN_IN_LOCKED } from "@persona/platform/session";

export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  if (await currentUser()) redirect("/");
  return (
    <div className="dbt-login">
      <div className="dbt-login-card">
        <div className="dbt-login-brand">
          <Logo size={52} />
          <h1>DashBite</h1>
        </div>
        <p className="dbt-muted">Sign in to order from your favourite local restaurants.</p>
        {one(sp.signed_out) ? <p className="dbt-note">You have signed out.</p> : null}
        {one(sp.error) === "locked" ? (
          <p className="dbt-alert" role="alert">
            {SIGN_IN_LOCKED.en}
          </p>
        ) : one(sp.error) ? (
          <p className="dbt-alert" role="alert">
            That username and password don't match.
          </p>
        ) : null}
        <form action="/api/session" method="post" data-testid="login-form" className="dbt-form">
          <input type="hidden" name="next" value={one(sp.next)} />
          <label>
            Username
            <input name="username" autoComplete="username" required defaultValue={one(sp.username)} autoFocus />
          </label>
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="dbt-primary">
            Sign in
          </button>
        </form>
      </div>
    </div>
  );
}

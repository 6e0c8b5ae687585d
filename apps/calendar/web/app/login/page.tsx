import { redirect } from "next/navigation";
import { LogoMark } from "@/calendar/components/Logo";
import { currentUser } from "@/calendar/lib/auth";
import { one, type Search } from "@/calendar/lib/search";
import { SIGN_IN_LOCKED } from "@persona/platform/session";

export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Search> }) {
  const sp = await searchParams;
  if (await currentUser()) redirect("/week");
  return (
    <div className="dbk-login">
      <div className="dbk-login-card">
        <LogoMark size={52} />
        <h1>Sign in to Daybook</h1>
        <p className="muted">Your days, in order.</p>
        {one(sp.signed_out) ? <p className="dbk-notice">You have signed out.</p> : null}
        {one(sp.error) === "locked" ? (
          <p className="dbk-error" role="alert">
            {SIGN_IN_LOCKED.en}
          </p>
        ) : one(sp.error) ? <p className="dbk-error" role="alert">The username or password is incorrect.</p> : null}
        <form action="/api/session" method="post" data-testid="login-form">
          <input type="hidden" name="next" value={one(sp.next)} />
          <label>
            Username <input id="username" name="username" autoComplete="username" required defaultValue={one(sp.username)} />
          </label>
          <label>
            Password <input id="password" name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="dbk-primary">
            Sign in
          </button>
        </form>
      </div>
    </div>
  );
}

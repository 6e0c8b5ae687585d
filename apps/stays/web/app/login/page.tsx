import { redirect } from "next/navigation";
import { Logo } from "@/stays/components/Brand";
import { currentUser } from "@/stays/lib/auth";
import { one, type SearchParams } from "@/stays/lib/params";
import { SIGN_IN_LOCKED } from "@persona/platform/session";

export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  if (await currentUser()) redirect("/");
  return (
    <div className="bs-login">
      <div className="bs-login-card">
        <div className="bs-login-brand">
          <Logo size={44} />
          <h1>Bramblestay</h1>
        </div>
        <p className="bs-muted">Sign in to see your trips, message hosts and book with your saved card.</p>
        {one(sp.signed_out) ? <p className="bs-note">You have signed out.</p> : null}
        {one(sp.error) === "locked" ? (
          <p className="bs-alert" role="alert">
            {SIGN_IN_LOCKED.en}
          </p>
        ) : one(sp.error) ? (
          <p className="bs-alert" role="alert">
            That username and password don&apos;t match.
          </p>
        ) : null}
        <form action="/api/session" method="post" data-testid="login-form" className="bs-form">
          <input type="hidden" name="next" value={one(sp.next)} />
          <label>
            Username
            <input name="username" autoComplete="username" required defaultValue={one(sp.username)} autoFocus />
          </label>
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="bs-primary">
            Sign in
          </button>
        </form>
      </div>
    </div>
  );
}

import { redirect } from "next/navigation";
import { Logo } from "@/dining/components/Brand";
import { currentUser } from "@/dining/lib/auth";
import { one, type SearchParams } from "@/dining/lib/params";
import { SIGN_IN_LOCKED } from "@persona/platform/session";

export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  if (await currentUser()) redirect("/");
  return (
    <div className="tt-login">
      <div className="tt-login-card">
        <div className="tt-login-brand">
          <Logo size={48} />
          <h1>
            Table<b>Time</b>
          </h1>
        </div>
        <p className="tt-muted">Sign in to see your reservations, saved restaurants and dining points.</p>
        {one(sp.signed_out) ? <p className="tt-note">You have signed out.</p> : null}
        {one(sp.error) === "locked" ? (
          <p className="tt-alert" role="alert">
            {SIGN_IN_LOCKED.en}
          </p>
        ) : one(sp.error) ? (
          <p className="tt-alert" role="alert">
            That username and password don&apos;t match.
          </p>
        ) : null}
        <form action="/api/session" method="post" data-testid="login-form" className="tt-form">
          <input type="hidden" name="next" value={one(sp.next)} />
          <label>
            Username
            <input name="username" autoComplete="username" required defaultValue={one(sp.username)} autoFocus />
          </label>
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="tt-primary">
            Sign in
          </button>
        </form>
      </div>
    </div>
  );
}

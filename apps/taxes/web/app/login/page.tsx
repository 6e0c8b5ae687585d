import { redirect } from "next/navigation";
import { Logo } from "@/taxes/components/Shell";
import { currentUser } from "@/taxes/lib/auth";
import { one, type SearchParams } from "@/taxes/lib/params";
import { SIGN_IN_LOCKED } from "@persona/platform/session";

export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  if (await currentUser()) redirect("/");
  return (
    <div className="ll-login">
      <div className="ll-card">
        <h1>
          <Logo />
        </h1>
        <p className="ll-muted">Sign in to continue your return, import your forms and see the returns you filed.</p>
        {one(sp.signed_out) ? <p className="ll-note">You have signed out. Your draft is saved.</p> : null}
        {one(sp.error) === "locked" ? (
          <p className="ll-alert" role="alert">
            {SIGN_IN_LOCKED.en}
          </p>
        ) : one(sp.error) ? (
          <p className="ll-alert" role="alert">
            That username and password don&apos;t match.
          </p>
        ) : null}
        <form action="/api/session" method="post" className="ll-form" data-testid="login-form">
          <input type="hidden" name="next" value={one(sp.next)} />
          <label>
            Username
            <input name="username" autoComplete="username" required defaultValue={one(sp.username)} autoFocus />
          </label>
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="ll-primary">
            Sign in
          </button>
        </form>
      </div>
    </div>
  );
}

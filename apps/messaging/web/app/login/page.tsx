import { redirect } from "next/navigation";
import { Logo } from "@/messaging/components/Avatar";
import { currentUser } from "@/messaging/lib/auth";
import { SIGN_IN_LOCKED } from "@persona/platform/session";

export const metadata = { title: "Sign in" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  if (await currentUser()) redirect("/");
  return (
    <div className="pl-login">
      <div className="pl-login-card">
        <div className="pl-login-brand">
          <Logo size={48} />
          <h1>Parley</h1>
        </div>
        <p className="pl-muted">Sign in to pick up your conversations where you left them.</p>
        {one(sp.signed_out) ? <p className="pl-note">You have signed out.</p> : null}
        {one(sp.error) === "locked" ? (
          <p className="pl-alert" role="alert">
            {SIGN_IN_LOCKED.en}
          </p>
        ) : one(sp.error) ? (
          <p className="pl-alert" role="alert">
            That username and password don't match.
          </p>
        ) : null}
        <form action="/api/session" method="post" data-testid="login-form">
          <input type="hidden" name="next" value={one(sp.next)} />
          <label>
            Username
            <input name="username" autoComplete="username" required defaultValue={one(sp.username)} autoFocus />
          </label>
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="pl-primary">
            Sign in
          </button>
        </form>
      </div>
    </div>
  );
}

import { redirect } from "next/navigation";
import { Logo } from "@/network/components/Logo";
import { currentUser } from "@/network/lib/auth";
import { SIGN_IN_LOCKED } from "@persona/platform/session";

export const metadata = { title: "Sign in" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  if (await currentUser()) redirect("/");
  return (
    <div className="gl-login">
      <div className="gl-card gl-login-card">
        <div className="gl-login-brand">
          <Logo size={40} />
          <h1>Guildline</h1>
        </div>
        <p className="gl-muted">Sign in to keep up with your professional world.</p>
        {one(sp.signed_out) ? <p className="gl-note">You have signed out.</p> : null}
        {one(sp.error) === "locked" ? (
          <p className="gl-alert" role="alert">
            {SIGN_IN_LOCKED.en}
          </p>
        ) : one(sp.error) ? <p className="gl-alert" role="alert">That username and password don't match.</p> : null}
        <form action="/api/session" method="post" data-testid="login-form" className="gl-form">
          <input type="hidden" name="next" value={one(sp.next)} />
          <label>
            Username
            <input name="username" autoComplete="username" required defaultValue={one(sp.username)} autoFocus />
          </label>
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="gl-primary">Sign in</button>
        </form>
      </div>
    </div>
  );
}

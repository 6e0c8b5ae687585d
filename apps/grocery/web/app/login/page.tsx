import { redirect } from "next/navigation";
import { Logo } from "@/grocery/components/Logo";
import { currentUser } from "@/grocery/lib/auth";
import { SIGN_IN_LOCKED } from "@persona/platform/session";

export const metadata = { title: "Sign in" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  if (await currentUser()) redirect("/");
  return (
    <div className="bf-login">
      <div className="bf-login-card">
        <div className="bf-login-brand">
          <Logo size={52} />
          <h1>Basketful</h1>
        </div>
        <p className="bf-muted">Sign in to shop your stores, pick a delivery window and see your orders.</p>
        {one(sp.signed_out) ? <p className="bf-note">You have signed out.</p> : null}
        {one(sp.error) === "locked" ? (
          <p className="bf-alert" role="alert">
            {SIGN_IN_LOCKED.en}
          </p>
        ) : one(sp.error) ? <p className="bf-alert" role="alert">That username and password don't match.</p> : null}
        <form action="/api/session" method="post" data-testid="login-form" className="bf-form">
          <input type="hidden" name="next" value={one(sp.next)} />
          <label>Username<input name="username" autoComplete="username" required defaultValue={one(sp.username)} autoFocus /></label>
          <label>Password<input name="password" type="password" autoComplete="current-password" required /></label>
          <button type="submit" className="bf-primary">Sign in</button>
        </form>
      </div>
    </div>
  );
}

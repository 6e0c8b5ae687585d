import { redirect } from "next/navigation";
import { currentUser } from "@/workchat/lib/auth";
import { SIGN_IN_LOCKED } from "@persona/platform/session";

export const metadata = { title: "Sign in" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/** Sign in to Huddle with the persona's username and password. */
export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  if (await currentUser()) redirect("/");
  return (
    <div className="hd-login">
      <div className="hd-login-card">
        <div className="hd-login-logo">
          <img src="/favicon.svg" alt="" width={40} height={40} /> <span>Huddle</span>
        </div>
        <h1>Sign in to your workspace</h1>
        <p className="muted">Use your work username and password.</p>
        {one(sp.signed_out) ? <div className="hd-notice">You have signed out.</div> : null}
        {one(sp.error) === "locked" ? (
          <div className="hd-error" role="alert">
            {SIGN_IN_LOCKED.en}
          </div>
        ) : one(sp.error) ? (
          <div className="hd-error" role="alert">
            That username and password don’t match. Try again.
          </div>
        ) : null}
        <form action="/api/session" method="post" data-testid="login-form">
          <input type="hidden" name="next" value={one(sp.next)} />
          <label className="hd-field">
            <span>Username</span>
            <input id="username" name="username" autoComplete="username" required defaultValue={one(sp.username)} autoFocus />
          </label>
          <label className="hd-field">
            <span>Password</span>
            <input id="password" name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="hd-btn hd-btn-primary hd-wide">
            Sign in
          </button>
        </form>
      </div>
    </div>
  );
}

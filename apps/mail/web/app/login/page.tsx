import { redirect } from "next/navigation";
import { Logo } from "@/mail/components/Logo";
import { one, type Search } from "@/mail/components/Notice";
import { currentUser } from "@/mail/lib/auth";
import { SIGN_IN_LOCKED } from "@persona/platform/session";

export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Search> }) {
  const sp = await searchParams;
  if (await currentUser()) redirect("/");
  return (
    <main className="mb-login">
      <div className="mb-login-card">
        <Logo size={44} />
        <h1>Sign in to Mailbox</h1>
        <p className="mb-muted">Use your Mailbox account</p>
        {one(sp.signed_out) ? <p className="mb-login-ok">You have signed out.</p> : null}
        {one(sp.error) === "locked" ? (
          <p className="mb-login-error" role="alert">
            {SIGN_IN_LOCKED.en}
          </p>
        ) : one(sp.error) ? (
          <p className="mb-login-error" role="alert">
            That username and password don't match. Try again.
          </p>
        ) : null}
        <form action="/api/session" method="post" data-testid="login-form">
          <input type="hidden" name="next" value={one(sp.next)} />
          <label htmlFor="username">Username</label>
          <input id="username" name="username" autoComplete="username" required defaultValue={one(sp.username)} autoFocus />
          <label htmlFor="password">Password</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required />
          <button type="submit" className="mb-primary">Next</button>
        </form>
      </div>
    </main>
  );
}

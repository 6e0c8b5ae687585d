import { redirect } from "next/navigation";
import { Logo } from "@/shop/components/Brand";
import { currentUser } from "@/shop/lib/auth";
import { one, type SearchParams } from "@/shop/lib/params";

export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  if (await currentUser()) redirect("/");
  return (
    <div className="sw-login">
      <div className="sw-login-brand">
        <Logo size={42} />
        Shopwell
      </div>
      <div className="sw-login-card">
        <h1>Sign in</h1>
        {one(sp.signed_out) ? <p className="sw-note">You have signed out.</p> : null}
        {one(sp.error) ? (
          <p className="sw-alert" role="alert">
            That username and password don&apos;t match.
          </p>
        ) : null}
        <form action="/api/session" method="post" data-testid="login-form" className="sw-form">
          <input type="hidden" name="next" value={one(sp.next)} />
          <label>
            Username
            <input name="username" autoComplete="username" required defaultValue={one(sp.username)} autoFocus />
          </label>
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="sw-btn">
            Sign in
          </button>
        </form>
        <p className="sw-small sw-muted">Orders, returns, your wish list and Subscribe &amp; Save in one place.</p>
      </div>
    </div>
  );
}

import { redirect } from "next/navigation";
import { Logo } from "@/rides/components/Logo";
import { currentUser } from "@/rides/lib/auth";
import { SIGN_IN_LOCKED } from "@persona/platform/session";

export const metadata = { title: "Sign in" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  if (await currentUser()) redirect("/");
  return (
    <div className="zr-login">
      <div className="zr-login-card">
        <div className="zr-login-brand">
          <Logo size={48} />
          <h1>ZipRide</h1>
        </div>
        <p className="zr-muted">Sign in to request a ride, see your trips and receipts.</p>
        {one(sp.signed_out) ? <p className="zr-note">You have signed out.</p> : null}
        {one(sp.error) === "locked" ? (
          <p className="zr-alert" role="alert">
            {SIGN_IN_LOCKED.en}
          </p>
        ) : one(sp.error) ? (
          <p className="zr-alert" role="alert">
            That username and password don't match.
          </p>
        ) : null}
        <form action="/api/session" method="post" data-testid="login-form" className="zr-form">
          <input type="hidden" name="next" value={one(sp.next)} />
          <label>
            Username
            <input name="username" autoComplete="username" required defaultValue={one(sp.username)} autoFocus />
          </label>
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="zr-primary">
            Sign in
          </button>
        </form>
      </div>
    </div>
  );
}

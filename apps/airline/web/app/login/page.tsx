import { redirect } from "next/navigation";
import { Logo } from "@/airline/components/Logo";
import { currentUser } from "@/airline/lib/auth";
import { SIGN_IN_LOCKED } from "@persona/platform/session";

export const metadata = { title: "Sign in" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  if (await currentUser()) redirect("/");
  return (
    <div className="ma-login">
      <div className="ma-login-card">
        <Logo />
        <h1>Sign in to MileagePass</h1>
        <p className="ma-muted">Manage your trips, check in and see your miles.</p>
        {one(sp.signed_out) ? <p className="ma-note">You have signed out.</p> : null}
        {one(sp.error) === "locked" ? (
          <p className="ma-alert" role="alert">
            {SIGN_IN_LOCKED.en}
          </p>
        ) : one(sp.error) ? (
          <p className="ma-alert" role="alert">
            That MileagePass number and password don't match our records.
          </p>
        ) : null}
        <form action="/api/session" method="post" data-testid="login-form">
          <input type="hidden" name="next" value={one(sp.next)} />
          <label>
            MileagePass number
            <input name="username" autoComplete="username" required defaultValue={one(sp.username)} placeholder="MR123456789" autoFocus />
          </label>
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="ma-primary">
            Sign in
          </button>
        </form>
      </div>
    </div>
  );
}

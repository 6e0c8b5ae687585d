import { redirect } from "next/navigation";
import { Logo } from "@/board/components/Logo";
import { currentUser } from "@/board/lib/auth";
import { one, type SearchParams } from "@/board/lib/params";
import { SIGN_IN_LOCKED } from "@persona/platform/session";

export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  if (await currentUser()) redirect("/board");
  return (
    <div className="cn-login">
      <div className="cn-login-card">
        <div className="cn-login-brand">
          <Logo size={44} />
          <h1>Cairn</h1>
        </div>
        <p className="cn-muted">Sign in to your team&apos;s board.</p>
        {one(sp.signed_out) ? <p className="cn-ok">You have signed out.</p> : null}
        {one(sp.error) === "locked" ? (
          <p className="cn-alert" role="alert">
            {SIGN_IN_LOCKED.en}
          </p>
        ) : one(sp.error) ? (
          <p className="cn-alert" role="alert">
            That username and password don&apos;t match.
          </p>
        ) : null}
        <form action="/api/session" method="post" data-testid="login-form" className="cn-form">
          <input type="hidden" name="next" value={one(sp.next)} />
          <label>
            Username
            <input name="username" autoComplete="username" required defaultValue={one(sp.username)} autoFocus />
          </label>
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="cn-primary">
            Sign in
          </button>
        </form>
      </div>
    </div>
  );
}

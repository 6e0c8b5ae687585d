import { redirect } from "next/navigation";
import { Alert, Button, Field, Input } from "@persona/ui";
import { LogoMark } from "@/bank/components/Logo";
import { currentUser } from "@/bank/lib/auth";
import { one, type Search } from "@/bank/lib/search";
import { SIGN_IN_LOCKED } from "@persona/platform/session";

export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Search> }) {
  const sp = await searchParams;
  if (await currentUser()) redirect("/accounts");
  const error = one(sp.error);
  return (
    <div className="lb-login">
      <section className="lb-login-brand">
        <div className="brand">
          <LogoMark size={42} /> Larkspur Bank
        </div>
        <div>
          <h1>Banking that grows with you.</h1>
          <p>Check balances, move money, pay bills and send money to friends, all in one place.</p>
          <ul>
            <li>Real-time balances across checking, savings and credit</li>
            <li>Free transfers and bill pay</li>
            <li>Send money in minutes with Zelle</li>
          </ul>
        </div>
        <p style={{ fontSize: 12.5 }}>Larkspur Bank, N.A. Member FDIC. Equal Housing Lender.</p>
      </section>
      <section className="lb-login-form">
        <div className="lb-login-card">
          <h2>Sign in</h2>
          <p className="muted" style={{ marginTop: 0, marginBottom: 20 }}>
            Welcome back. Sign in to online banking.
          </p>
          {one(sp.signed_out) ? <Alert tone="success">You have signed out.</Alert> : null}
          {error === "locked" ? (
            <Alert tone="error">{SIGN_IN_LOCKED.en}</Alert>
          ) : error ? (
            <Alert tone="error">The username or password you entered is incorrect.</Alert>
          ) : null}
          <form action="/api/session" method="post" data-testid="login-form">
            <input type="hidden" name="next" value={one(sp.next)} />
            <Field label="Username" htmlFor="username">
              <Input id="username" name="username" autoComplete="username" required defaultValue={one(sp.username)} autoFocus />
            </Field>
            <Field label="Password" htmlFor="password">
              <Input id="password" name="password" type="password" autoComplete="current-password" required />
            </Field>
            <Button>Sign in</Button>
          </form>
          <p className="lb-fineprint">Protect your account: Larkspur Bank will never ask for your password by phone or email.</p>
        </div>
      </section>
    </div>
  );
}

import { Alert, Button, Field, Input } from "@persona/ui";
import { LogoMark } from "@/bank/components/Logo";
import { bank } from "@/bank/lib/app";
import { deposit, legalLine, rail } from "@/bank/lib/labels";

export const metadata = { title: "Sign in" };

/** The bank's sign-in: its brand panel beside the shared form (@persona/platform/signin), in the bank's own words. */
export default bank.signInPage({
  home: "/accounts",
  form: {
    words: { invalid: "The username or password you entered is incorrect." },
    notice: (tone, text) => <Alert tone={tone === "ok" ? "success" : "error"}>{text}</Alert>,
    field: (label, input) => (
      <Field label={label} htmlFor={input.id}>
        <Input {...input} />
      </Field>
    ),
    button: (label) => <Button>{label}</Button>,
  },
  layout: (form) => (
    <div className="lb-login">
      <section className="lb-login-brand">
        <div className="brand">
          <LogoMark size={42} /> {bank.settings.title}
        </div>
        <div>
          <h1>Banking that grows with you.</h1>
          <p>Check balances, move money, pay bills and send money to friends, all in one place.</p>
          <ul>
            <li>Real-time balances across checking, savings and credit</li>
            <li>Free transfers and bill pay</li>
            <li>Send money in minutes {rail(bank.context().meta).via}</li>
          </ul>
        </div>
        <p style={{ fontSize: 12.5 }}>{legalLine(bank.settings.title, deposit(bank.context().meta))}</p>
      </section>
      <section className="lb-login-form">
        <div className="lb-login-card">
          <h2>Sign in</h2>
          <p className="muted" style={{ marginTop: 0, marginBottom: 20 }}>
            Welcome back. Sign in to online banking.
          </p>
          {form}
          <p className="lb-fineprint">Protect your account: Larkspur Bank will never ask for your password by phone or email.</p>
        </div>
      </section>
    </div>
  ),
});

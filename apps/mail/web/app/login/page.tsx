import { Logo } from "@/mail/components/Logo";
import { mail } from "@/mail/lib/app";

export const metadata = { title: "Sign in" };

/** Mailbox's sign-in: the shared form (@persona/platform/signin) with labels above the inputs and a "Next" button. */
export default mail.signInPage({
  form: {
    words: { invalid: "That username and password don't match. Try again.", submit: "Next" },
    notice: { ok: "mb-login-ok", error: "mb-login-error" },
    field: (label, input) => (
      <>
        <label htmlFor={input.id}>{label}</label>
        <input {...input} />
      </>
    ),
    button: "mb-primary",
  },
  layout: (form) => (
    <main className="mb-login">
      <div className="mb-login-card">
        <Logo size={44} />
        <h1>Sign in to {mail.settings.title}</h1>
        <p className="mb-muted">Use your {mail.settings.title} account</p>
        {form}
      </div>
    </main>
  ),
});

import { Logo } from "@/taxes/components/Shell";
import { taxes } from "@/taxes/lib/app";

export const metadata = { title: "Sign in" };

/** Ledgerleaf Tax's sign-in: the wordmark above the shared form (@persona/platform/signin); a sign-out keeps the draft. */
export default taxes.signInPage({
  form: {
    words: { signedOut: "You have signed out. Your draft is saved." },
    className: "ll-form",
    notice: { ok: "ll-note", error: "ll-alert" },
    button: "ll-primary",
  },
  layout: (form) => (
    <div className="ll-login">
      <div className="ll-card">
        <h1>
          <Logo />
        </h1>
        <p className="ll-muted">Sign in to continue your return, import your forms and see the returns you filed.</p>
        {form}
      </div>
    </div>
  ),
});

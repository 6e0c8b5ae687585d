import { Logo } from "@/stays/components/Brand";
import { stays } from "@/stays/lib/app";

export const metadata = { title: "Sign in" };

/** The sign-in card: the logo and name above the shared form (@persona/platform/signin). */
export default stays.signInPage({
  form: { className: "bs-form", notice: { ok: "bs-note", error: "bs-alert" }, button: "bs-primary" },
  layout: (form) => (
    <div className="bs-login">
      <div className="bs-login-card">
        <div className="bs-login-brand">
          <Logo size={44} />
          <h1>{stays.settings.title}</h1>
        </div>
        <p className="bs-muted">Sign in to see your trips, message hosts and book with your saved card.</p>
        {form}
      </div>
    </div>
  ),
});

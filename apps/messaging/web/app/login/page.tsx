import { Logo } from "@/messaging/components/Avatar";
import { messaging } from "@/messaging/lib/app";

export const metadata = { title: "Sign in" };

/** The sign-in card: the logo and name above the shared form (@persona/platform/signin). */
export default messaging.signInPage({
  form: { notice: { ok: "pl-note", error: "pl-alert" }, button: "pl-primary" },
  layout: (form) => (
    <div className="pl-login">
      <div className="pl-login-card">
        <div className="pl-login-brand">
          <Logo size={48} />
          <h1>{messaging.settings.title}</h1>
        </div>
        <p className="pl-muted">Sign in to pick up your conversations where you left them.</p>
        {form}
      </div>
    </div>
  ),
});

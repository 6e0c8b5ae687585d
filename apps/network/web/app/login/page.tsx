import { Logo } from "@/network/components/Logo";
import { network } from "@/network/lib/app";

export const metadata = { title: "Sign in" };

/** The sign-in card: the logo and name above the shared form (@persona/platform/signin). */
export default network.signInPage({
  form: { className: "gl-form", notice: { ok: "gl-note", error: "gl-alert" }, button: "gl-primary" },
  layout: (form) => (
    <div className="gl-login">
      <div className="gl-card gl-login-card">
        <div className="gl-login-brand">
          <Logo size={40} />
          <h1>{network.settings.title}</h1>
        </div>
        <p className="gl-muted">Sign in to keep up with your professional world.</p>
        {form}
      </div>
    </div>
  ),
});

import { Logo } from "@/rides/components/Logo";
import { rides } from "@/rides/lib/app";

export const metadata = { title: "Sign in" };

/** The sign-in card: the logo and name above the shared form (@persona/platform/signin). */
export default rides.signInPage({
  form: { className: "zr-form", notice: { ok: "zr-note", error: "zr-alert" }, button: "zr-primary" },
  layout: (form) => (
    <div className="zr-login">
      <div className="zr-login-card">
        <div className="zr-login-brand">
          <Logo size={48} />
          <h1>{rides.settings.title}</h1>
        </div>
        <p className="zr-muted">Sign in to request a ride, see your trips and receipts.</p>
        {form}
      </div>
    </div>
  ),
});

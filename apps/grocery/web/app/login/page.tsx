import { Logo } from "@/grocery/components/Logo";
import { grocery } from "@/grocery/lib/app";

export const metadata = { title: "Sign in" };

/** The sign-in card: the logo and name above the shared form (@persona/platform/signin). */
export default grocery.signInPage({
  form: { className: "bf-form", notice: { ok: "bf-note", error: "bf-alert" }, button: "bf-primary" },
  layout: (form) => (
    <div className="bf-login">
      <div className="bf-login-card">
        <div className="bf-login-brand">
          <Logo size={52} />
          <h1>{grocery.settings.title}</h1>
        </div>
        <p className="bf-muted">Sign in to shop your stores, pick a delivery window and see your orders.</p>
        {form}
      </div>
    </div>
  ),
});

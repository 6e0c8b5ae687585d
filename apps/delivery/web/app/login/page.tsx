import { Logo } from "@/delivery/components/Logo";
import { delivery } from "@/delivery/lib/app";

export const metadata = { title: "Sign in" };

/** The sign-in card: the logo and name above the shared form (@persona/platform/signin). */
export default delivery.signInPage({
  form: { className: "dbt-form", notice: { ok: "dbt-note", error: "dbt-alert" }, button: "dbt-primary" },
  layout: (form) => (
    <div className="dbt-login">
      <div className="dbt-login-card">
        <div className="dbt-login-brand">
          <Logo size={52} />
          <h1>{delivery.settings.title}</h1>
        </div>
        <p className="dbt-muted">Sign in to order from your favourite local restaurants.</p>
        {form}
      </div>
    </div>
  ),
});

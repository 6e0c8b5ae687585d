import { Logo } from "@/dining/components/Brand";
import { dining } from "@/dining/lib/app";

export const metadata = { title: "Sign in" };

/** The sign-in card: the two-weight wordmark above the shared form (@persona/platform/signin). */
export default dining.signInPage({
  form: { className: "tt-form", notice: { ok: "tt-note", error: "tt-alert" }, button: "tt-primary" },
  layout: (form) => (
    <div className="tt-login">
      <div className="tt-login-card">
        <div className="tt-login-brand">
          <Logo size={48} />
          <h1>
            Table<b>Time</b>
          </h1>
        </div>
        <p className="tt-muted">Sign in to see your reservations, saved restaurants and dining points.</p>
        {form}
      </div>
    </div>
  ),
});

import { LogoMark } from "@/calendar/components/Logo";
import { calendar } from "@/calendar/lib/app";

export const metadata = { title: "Sign in" };

/** Daybook's sign-in: the shared form (@persona/platform/signin) with its labels beside the inputs. */
export default calendar.signInPage({
  home: "/week",
  form: {
    words: { invalid: "The username or password is incorrect." },
    notice: { ok: "dbk-notice", error: "dbk-error" },
    autoFocus: false,
    field: (label, input) => (
      <label>
        {label} <input {...input} />
      </label>
    ),
    button: "dbk-primary",
  },
  layout: (form) => (
    <div className="dbk-login">
      <div className="dbk-login-card">
        <LogoMark size={52} />
        <h1>Sign in to {calendar.settings.title}</h1>
        <p className="muted">Your days, in order.</p>
        {form}
      </div>
    </div>
  ),
});

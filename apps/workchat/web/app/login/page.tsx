import { workchat } from "@/workchat/lib/app";

export const metadata = { title: "Sign in" };

/** Sign in to Huddle with the persona's work username and password (the shared form, @persona/platform/signin). */
export default workchat.signInPage({
  form: {
    words: { invalid: "That username and password don’t match. Try again." },
    notice: { ok: "hd-notice", error: "hd-error", as: "div" },
    field: (label, input) => (
      <label className="hd-field">
        <span>{label}</span>
        <input {...input} />
      </label>
    ),
    button: "hd-btn hd-btn-primary hd-wide",
  },
  layout: (form) => (
    <div className="hd-login">
      <div className="hd-login-card">
        <div className="hd-login-logo">
          <img src="/favicon.svg" alt="" width={40} height={40} /> <span>{workchat.settings.title}</span>
        </div>
        <h1>Sign in to your workspace</h1>
        <p className="muted">Use your work username and password.</p>
        {form}
      </div>
    </div>
  ),
});

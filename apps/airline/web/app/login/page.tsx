import { Logo } from "@/airline/components/Logo";
import { airline } from "@/airline/lib/app";

export const metadata = { title: "Sign in" };

/** Sign in to MileagePass: the shared form (@persona/platform/signin) asking for the member number. */
export default airline.signInPage({
  form: {
    words: { username: "MileagePass number", invalid: "That MileagePass number and password don't match our records." },
    placeholder: "MR123456789",
    notice: { ok: "ma-note", error: "ma-alert" },
    button: "ma-primary",
  },
  layout: (form) => (
    <div className="ma-login">
      <div className="ma-login-card">
        <Logo />
        <h1>Sign in to MileagePass</h1>
        <p className="ma-muted">Manage your trips, check in and see your miles.</p>
        {form}
      </div>
    </div>
  ),
});

import { Logo } from "@/markets/components/Shell";
import { markets } from "@/markets/lib/app";

export const metadata = { title: "Sign in" };

/** Hunchline's sign-in in the persona's language: the brand above a card with the shared form (@persona/platform/signin). */
export default markets.signInPage({
  localized: true,
  form: { className: "hl-form", notice: { ok: "hl-note", error: "hl-alert" }, button: "hl-btn" },
  layout: (form, { t }) => (
    <div className="hl-login">
      <div className="hl-login-brand">
        <Logo size={40} /> {markets.settings.title}
      </div>
      <div className="hl-login-card">
        <h1>{t("Sign in", "Anmelden")}</h1>
        {form}
      </div>
    </div>
  ),
});

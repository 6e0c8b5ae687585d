import { Logo } from "@/brokerage/components/Shell";
import { brokerage } from "@/brokerage/lib/app";

export const metadata = { title: "Sign in" };

/** Tidewell's sign-in in the persona's language: the brand above a card with the shared form (@persona/platform/signin). */
export default brokerage.signInPage({
  localized: true,
  form: { className: "tw-form", notice: { ok: "tw-note", error: "tw-alert" }, button: "tw-btn" },
  layout: (form, { t }) => (
    <div className="tw-login">
      <div className="tw-brand">
        <Logo size={42} />
        {brokerage.settings.title}
      </div>
      <div className="tw-login-card">
        <h1>{t("Sign in", "Anmelden")}</h1>
        {form}
        <p className="tw-small tw-muted">{t("Your portfolio, orders, dividends and transfers in one place.", "Depot, Orders, Dividenden und Überweisungen an einem Ort.")}</p>
      </div>
    </div>
  ),
});

import { Logo } from "@/shop/components/Brand";
import { shop } from "@/shop/lib/app";

export const metadata = { title: "Sign in" };

/** Shopwell's sign-in in the persona's language: the brand above a card with the shared form (@persona/platform/signin). */
export default shop.signInPage({
  localized: true,
  form: { className: "sw-form", notice: { ok: "sw-note", error: "sw-alert" }, button: "sw-btn" },
  layout: (form, { t }) => (
    <div className="sw-login">
      <div className="sw-login-brand">
        <Logo size={42} />
        {shop.settings.title}
      </div>
      <div className="sw-login-card">
        <h1>{t("Sign in", "Anmelden")}</h1>
        {form}
        <p className="sw-small sw-muted">{t("Orders, returns, your wish list and Subscribe & Save in one place.", "Bestellungen, Rücksendungen, Wunschzettel und Spar-Abo an einem Ort.")}</p>
      </div>
    </div>
  ),
});

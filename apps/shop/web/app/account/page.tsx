import Link from "next/link";
import { Alert } from "@persona/ui";
import { Footer, Header } from "@/shop/components/Brand";
import { shell } from "@/shop/lib/page";
import { one, type SearchParams } from "@/shop/lib/params";
import { addressesOf, cardsOf } from "@/shop/lib/shop";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

export const metadata = { title: "Your account" };

export default async function AccountPage({ searchParams }: { searchParams: SearchParams }) {
  const { user, ctx, cart, depts } = await shell();
  const t = ctx.t;
  const sp = await searchParams;
  const error = errorMessage(sp);
  return (
    <>
      <Header ctx={ctx} name={user.full_name} cart={cart} depts={depts} />
      <main className="sw-page" style={{ maxWidth: 980 }}>
        <h1>{t("Your account", "Mein Konto")}</h1>
        {error ? <Alert tone="error" className="sw-alert" data-testid="error">{error}</Alert> : null}
        {one(sp.saved) ? <Alert tone="success" className="sw-note" data-testid="saved">{t("Address saved.", "Adresse gespeichert.")}</Alert> : null}
        <div className="sw-tiles" style={{ marginBottom: 14 }}>
          <Link href="/orders" className="sw-tile">{t("Your orders", "Ihre Bestellungen")}</Link>
          <Link href="/wishlist" className="sw-tile">{t("Wish list", "Wunschzettel")}</Link>
          <Link href="/subscriptions" className="sw-tile">{t("Subscribe & Save", "Spar-Abo")}</Link>
        </div>
        <section className="sw-panel">
          <h2 style={{ marginTop: 0 }}>{t("Sign-in details", "Anmeldedaten")}</h2>
          <p>{user.full_name} · {user.email} · {user.phone}</p>
        </section>
        <section className="sw-panel">
          <h2 style={{ marginTop: 0 }}>{t("Your addresses", "Ihre Adressen")}</h2>
          {addressesOf(user.id).map((a) => (
            <p key={a.id} data-testid="saved-address" data-name={a.name} data-line={a.line}><b>{a.name}</b> ({a.label}){a.is_default ? ` · ${t("Default", "Standard")}` : ""}<br />{a.line}</p>
          ))}
          <details id="new-address" open={!!error}>
            <summary className="sw-link">{t("Add an address", "Adresse hinzufügen")}</summary>
            <form action="/api/addresses" method="post" className="sw-form" style={{ maxWidth: 460, marginTop: 8 }} data-testid="address-form">
              <input type="hidden" name="_idem" value={idempotencyToken()} />
              <input type="hidden" name="back" value={one(sp.back) === "/checkout" ? "/checkout" : "/account"} />
              <label>{t("Full name", "Vollständiger Name")}<input name="name" required maxLength={80} /></label>
              <label>{t("Street and number", "Straße und Hausnummer")}<input name="street" required maxLength={100} /></label>
              <div className="sw-row">
                <label style={{ flex: 2 }}>{t("Town or city", "Ort")}<input name="city" required maxLength={60} /></label>
                {ctx.locale === "en-US" ? <label style={{ flex: 1 }}>State<input name="region" maxLength={2} placeholder="OR" /></label> : <input type="hidden" name="region" value="" />}
                <label style={{ flex: 1 }}>{t(ctx.locale === "en-US" ? "ZIP code" : "Postcode", "PLZ")}<input name="postcode" required maxLength={10} /></label>
              </div>
              <label>{t("Label (optional)", "Bezeichnung (optional)")}<input name="label" maxLength={40} placeholder={t("e.g. Mom", "z. B. Mama")} /></label>
              <button type="submit" className="sw-btn" data-testid="address-save">{t("Save address", "Adresse speichern")}</button>
            </form>
          </details>
        </section>
        <section className="sw-panel">
          <h2 style={{ marginTop: 0 }}>{t("Your payments", "Ihre Zahlungsarten")}</h2>
          {cardsOf(user.id).map((c) => (
            <p key={c.id} data-testid="saved-card" data-last4={c.last4}><b>{c.label}</b>{c.is_default ? ` · ${t("Default", "Standard")}` : ""}<br /><span className="sw-small sw-muted">{c.holder} · {t("expires", "gültig bis")} {c.expiry}</span></p>
          ))}
        </section>
      </main>
      <Footer ctx={ctx} />
    </>
  );
}

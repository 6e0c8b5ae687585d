import Link from "next/link";
import { Footer, Header } from "@/shop/components/Brand";
import { shell } from "@/shop/lib/page";
import { addressesOf, cardsOf } from "@/shop/lib/shop";

export const metadata = { title: "Your account" };

export default async function AccountPage() {
  const { user, ctx, cart, depts } = await shell();
  const t = ctx.t;
  return (
    <>
      <Header ctx={ctx} name={user.full_name} cart={cart} depts={depts} />
      <main className="sw-page" style={{ maxWidth: 980 }}>
        <h1>{t("Your account", "Mein Konto")}</h1>
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
            <p key={a.id} data-testid="saved-address"><b>{a.name}</b> ({a.label}){a.is_default ? ` · ${t("Default", "Standard")}` : ""}<br />{a.line}</p>
          ))}
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

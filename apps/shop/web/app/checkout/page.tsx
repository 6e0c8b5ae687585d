import Link from "next/link";
import { redirect } from "next/navigation";
import { Alert } from "@persona/ui";
import { Footer, Header } from "@/shop/components/Brand";
import { shell } from "@/shop/lib/page";
import { one, type SearchParams } from "@/shop/lib/params";
import { addressesOf, cardsOf, cartOf, shippingFor } from "@/shop/lib/shop";
import { addDays } from "@persona/platform/clock";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

export const metadata = { title: "Checkout" };

export default async function CheckoutPage({ searchParams }: { searchParams: SearchParams }) {
  const { user, ctx, cart, depts } = await shell();
  const t = ctx.t;
  const sp = await searchParams;
  const error = errorMessage(sp);
  const lines = cartOf(user.id);
  if (!lines.length && !error) redirect("/cart");
  const addresses = addressesOf(user.id);
  const cards = cardsOf(user.id);
  const subtotal = lines.reduce((s, l) => s + l.qty * l.price_cents, 0);
  const shipping = shippingFor(subtotal);
  const pickedAddress = one(sp.address) || String(addresses[0]?.id ?? "");
  const pickedCard = one(sp.card) || String(cards[0]?.id ?? "");
  return (
    <>
      <Header ctx={ctx} name={user.full_name} cart={cart} depts={depts} />
      <main className="sw-page">
        <h1>{t("Checkout", "Kasse")}</h1>
        {error ? <Alert tone="error" className="sw-alert" data-testid="error">{error}</Alert> : null}
        <form action="/api/orders" method="post" className="sw-two-col" data-testid="checkout-form">
          <input type="hidden" name="_idem" value={idempotencyToken()} />
          <div>
            <section className="sw-panel">
              <h2 style={{ marginTop: 0 }}>1 · {t("Delivery address", "Lieferadresse")}</h2>
              {addresses.map((a) => (
                <label key={a.id} className="sw-choice" data-testid="address" data-id={a.id} data-name={a.name}>
                  <input type="radio" name="address" value={a.id} defaultChecked={String(a.id) === pickedAddress} />
                  <span><b>{a.name}</b> ({a.label})<br />{a.line}</span>
                </label>
              ))}
              <Link href="/account?back=/checkout#new-address" className="sw-small">{t("Send to someone else: add an address", "An jemand anderen senden: Adresse hinzufügen")}</Link>
            </section>
            <section className="sw-panel">
              <h2 style={{ marginTop: 0 }}>2 · {t("Payment method", "Zahlungsart")}</h2>
              {cards.map((c) => (
                <label key={c.id} className="sw-choice" data-testid="card" data-last4={c.last4}>
                  <input type="radio" name="card" value={c.id} defaultChecked={String(c.id) === pickedCard} />
                  <span><b>{c.label}</b><br /><span className="sw-small sw-muted">{c.holder} · {t("expires", "gültig bis")} {c.expiry}</span></span>
                </label>
              ))}
            </section>
            <section className="sw-panel">
              <h2 style={{ marginTop: 0 }}>3 · {t("Review items", "Artikel prüfen")}</h2>
              <p className="sw-good">{t("Arriving", "Lieferung")} {ctx.day(addDays(ctx.now, 3))}</p>
              {lines.map((l) => (
                <p key={l.sku}>{l.qty} × <Link href={`/p/${l.slug}`}>{l.title}</Link>{l.label ? ` (${l.label})` : ""} · <b>{ctx.money(l.qty * l.price_cents)}</b></p>
              ))}
            </section>
          </div>
          <aside className="sw-panel">
            <button type="submit" className="sw-btn" style={{ width: "100%" }} data-testid="place-order">{t("Place your order", "Jetzt kaufen")}</button>
            <table className="sw-totals" style={{ marginTop: 12 }}>
              <tbody>
                <tr><td>{t("Items", "Artikel")}:</td><td>{ctx.money(subtotal)}</td></tr>
                <tr><td>{t("Shipping", "Versand")}:</td><td>{ctx.money(shipping)}</td></tr>
                <tr className="total"><td>{t("Order total", "Gesamtbetrag")}:</td><td data-testid="order-total" data-cents={subtotal + shipping}>{ctx.money(subtotal + shipping)}</td></tr>
              </tbody>
            </table>
            <p className="sw-small sw-muted">{t("Your card is charged when you place the order.", "Ihre Karte wird bei der Bestellung belastet.")}</p>
          </aside>
        </form>
      </main>
      <Footer ctx={ctx} />
    </>
  );
}

import Link from "next/link";
import { Alert } from "@persona/ui";
import { Footer, Header } from "@/shop/components/Brand";
import { Picture } from "@/shop/components/Product";
import { shell } from "@/shop/lib/page";
import { one, type SearchParams } from "@/shop/lib/params";
import { cartOf, FREE_SHIPPING_FROM_CENTS, shippingFor } from "@/shop/lib/shop";
import { errorMessage } from "@persona/platform/http";

export const metadata = { title: "Cart" };

export default async function CartPage({ searchParams }: { searchParams: SearchParams }) {
  const { user, ctx, cart, depts } = await shell();
  const t = ctx.t;
  const sp = await searchParams;
  const error = errorMessage(sp);
  const lines = cartOf(user.id);
  const subtotal = lines.reduce((s, l) => s + l.qty * l.price_cents, 0);
  const count = lines.reduce((s, l) => s + l.qty, 0);
  return (
    <>
      <Header ctx={ctx} name={user.full_name} cart={cart} depts={depts} />
      <main className="sw-page">
        {error ? <Alert tone="error" className="sw-alert" data-testid="error">{error}</Alert> : null}
        {one(sp.added) ? <Alert tone="success" className="sw-note" data-testid="added">{t("Added to your cart.", "In den Warenkorb gelegt.")}</Alert> : null}
        {one(sp.reordered) ? <Alert tone="success" className="sw-note" data-testid="reordered">{t("The items of that order are in your cart again.", "Die Artikel dieser Bestellung liegen wieder im Warenkorb.")}</Alert> : null}
        <div className="sw-two-col">
          <section className="sw-panel">
            <h1>{t("Shopping cart", "Einkaufswagen")}</h1>
            {lines.length === 0 ? <p className="sw-empty">{t("Your cart is empty.", "Ihr Warenkorb ist leer.")} <Link href="/">{t("Keep shopping", "Weiter einkaufen")}</Link></p> : null}
            {lines.map((l) => (
              <div key={l.sku} className="sw-line" data-testid="cart-line" data-sku={l.sku} data-qty={l.qty} data-price={l.price_cents}>
                <Picture p={{ department: l.department, line: "", brand: l.brand, id: l.product_id }} size={90} />
                <div>
                  <Link href={`/p/${l.slug}`}><b>{l.title}</b></Link>
                  {l.label ? <div className="sw-small">{l.label}</div> : null}
                  <div className="sw-good sw-small">{t("In stock", "Auf Lager")}</div>
                  <form action="/api/cart" method="post" className="sw-row" style={{ marginTop: 6 }}>
                    <input type="hidden" name="action" value="update" />
                    <input type="hidden" name="sku" value={l.sku} />
                    <select name="qty" defaultValue={String(l.qty)} aria-label={t("Quantity", "Menge")}>
                      {Array.from({ length: 10 }, (_, i) => <option key={i} value={i + 1}>{i + 1}</option>)}
                    </select>
                    <button type="submit" className="sw-btn-2">{t("Update", "Aktualisieren")}</button>
                  </form>
                  <form action="/api/cart" method="post" style={{ marginTop: 4 }}>
                    <input type="hidden" name="action" value="update" />
                    <input type="hidden" name="sku" value={l.sku} />
                    <input type="hidden" name="qty" value="0" />
                    <button type="submit" className="sw-link sw-small" data-testid="remove">{t("Delete", "Löschen")}</button>
                  </form>
                </div>
                <b>{ctx.money(l.qty * l.price_cents)}</b>
              </div>
            ))}
          </section>
          <aside className="sw-panel">
            <p>{t(`Subtotal (${count} items)`, `Zwischensumme (${count} Artikel)`)}: <b data-testid="cart-subtotal" data-cents={subtotal}>{ctx.money(subtotal)}</b></p>
            <p className="sw-small">{subtotal >= FREE_SHIPPING_FROM_CENTS ? <span className="sw-good">{t("Your order qualifies for FREE shipping.", "Ihre Bestellung wird KOSTENLOS versandt.")}</span> : t(`Add ${ctx.money(FREE_SHIPPING_FROM_CENTS - subtotal)} for free shipping (else ${ctx.money(shippingFor(subtotal))}).`, `Noch ${ctx.money(FREE_SHIPPING_FROM_CENTS - subtotal)} bis zum kostenlosen Versand (sonst ${ctx.money(shippingFor(subtotal))}).`)}</p>
            {lines.length ? <Link href="/checkout" className="sw-btn" style={{ width: "100%" }} data-testid="to-checkout">{t("Proceed to checkout", "Zur Kasse gehen")}</Link> : null}
          </aside>
        </div>
      </main>
      <Footer ctx={ctx} />
    </>
  );
}

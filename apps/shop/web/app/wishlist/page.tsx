import Link from "next/link";
import { Alert } from "@persona/ui";
import { Footer, Header } from "@/shop/components/Brand";
import { Picture, Stars } from "@/shop/components/Product";
import { shell } from "@/shop/lib/page";
import type { SearchParams } from "@/shop/lib/params";
import { variantsOf, wishlistOf } from "@/shop/lib/shop";
import { errorMessage } from "@persona/platform/http";

export const metadata = { title: "Wish list" };

export default async function WishlistPage({ searchParams }: { searchParams: SearchParams }) {
  const { user, ctx, cart, depts } = await shell();
  const t = ctx.t;
  const sp = await searchParams;
  const error = errorMessage(sp);
  const list = wishlistOf(user.id);
  return (
    <>
      <Header ctx={ctx} name={user.full_name} cart={cart} depts={depts} />
      <main className="sw-page" style={{ maxWidth: 980 }}>
        <h1>{t("Your wish list", "Ihr Wunschzettel")}</h1>
        {error ? <Alert tone="error" className="sw-alert">{error}</Alert> : null}
        <div className="sw-panel">
          {list.length === 0 ? <p className="sw-empty">{t("Nothing here yet. Add products from their page.", "Noch leer. Fügen Sie Produkte auf ihrer Seite hinzu.")}</p> : null}
          {list.map((p) => {
            const v = variantsOf(p.id)[0];
            return (
              <div key={p.id} className="sw-line" data-testid="wish" data-product={p.id}>
                <Picture p={p} size={90} />
                <div>
                  <Link href={`/p/${p.slug}`}><b>{p.title}</b></Link>
                  <div className="sw-row sw-small"><Stars x10={p.rating_x10} /> {p.review_count.toLocaleString(ctx.locale)}</div>
                  <div className="sw-small sw-muted">{t("Added", "Hinzugefügt am")} {ctx.date(p.added_at)}</div>
                  <div className="sw-row" style={{ marginTop: 6 }}>
                    <form action="/api/cart" method="post">
                      <input type="hidden" name="action" value="add" /><input type="hidden" name="sku" value={v.sku} /><input type="hidden" name="qty" value="1" /><input type="hidden" name="back" value="/wishlist" />
                      <button type="submit" className="sw-btn">{t("Add to cart", "In den Warenkorb")}</button>
                    </form>
                    <form action="/api/wishlist" method="post">
                      <input type="hidden" name="product" value={p.id} /><input type="hidden" name="on" value="0" /><input type="hidden" name="back" value="/wishlist" />
                      <button type="submit" className="sw-btn-2">{t("Remove", "Entfernen")}</button>
                    </form>
                  </div>
                </div>
                <b>{ctx.money(p.min_price_cents)}</b>
              </div>
            );
          })}
        </div>
      </main>
      <Footer ctx={ctx} />
    </>
  );
}

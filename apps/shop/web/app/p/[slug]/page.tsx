import Link from "next/link";
import { notFound } from "next/navigation";
import { Alert } from "@persona/ui";
import { Footer, Header } from "@/shop/components/Brand";
import { Picture, ProductCard, Stars } from "@/shop/components/Product";
import { db } from "@/shop/lib/db";
import { shell } from "@/shop/lib/page";
import { one, type SearchParams } from "@/shop/lib/params";
import { departmentName, hasBought, hasOrdered, inWishlist, myReview, productBySlug, related, reviewsOf, SUBSCRIBE_DISCOUNT_PCT, SUBSCRIBE_WEEKS, variantsOf } from "@/shop/lib/shop";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

export default async function ProductPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: SearchParams }) {
  const { user, ctx, cart, depts } = await shell();
  const t = ctx.t;
  const { slug } = await params;
  const sp = await searchParams;
  const error = errorMessage(sp);
  const p = productBySlug(slug);
  if (!p) notFound();
  const variants = variantsOf(p.id);
  const v = variants.find((x) => x.sku === one(sp.v)) ?? variants[0];
  const specs = JSON.parse(p.specs) as [string, string][];
  const reviews = reviewsOf(p.id);
  const bought = hasBought(user.id, p.id);
  const mine = myReview(user.id, p.id);
  const wished = inWishlist(user.id, p.id);
  const lastBought = hasOrdered(user.id, p.id)
    ? (db().prepare("SELECT o.order_number, o.placed_at FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.user_id = ? AND i.product_id = ? ORDER BY o.placed_at DESC LIMIT 1").get(user.id, p.id) as { order_number: string; placed_at: string })
    : null;
  const here = `/p/${p.slug}${v.sku !== variants[0].sku ? `?v=${v.sku}` : ""}`;
  const subPrice = Math.round((v.price_cents * (100 - SUBSCRIBE_DISCOUNT_PCT)) / 100);
  return (
    <>
      <Header ctx={ctx} name={user.full_name} cart={cart} depts={depts} />
      <main className="sw-page">
        <p className="sw-small"><Link href={`/s?dept=${p.department}`}>{departmentName(p.department)}</Link>{p.brand ? <> › <Link href={`/s?dept=${p.department}&brand=${encodeURIComponent(p.brand)}`}>{p.brand}</Link></> : null}</p>
        {error ? <Alert tone="error" className="sw-alert" data-testid="error">{error}</Alert> : null}
        {one(sp.reviewed) ? <Alert tone="success" className="sw-note">{t("Thanks! Your review is posted.", "Danke! Ihre Bewertung ist veröffentlicht.")}</Alert> : null}
        <div className="sw-product" data-testid="product" data-id={p.id} data-sku={v.sku} data-price={v.price_cents}>
          <div className="sw-panel" style={{ display: "flex", justifyContent: "center" }}><Picture p={p} size={340} /></div>
          <div>
            <h1 data-testid="product-title">{p.title}</h1>
            {p.author ? <p>{t("by", "von")} <b>{p.author}</b></p> : null}
            {p.brand ? <p><Link href={`/s?brand=${encodeURIComponent(p.brand)}`}>{t(`Visit the ${p.brand} store`, `Zum ${p.brand}-Shop`)}</Link></p> : null}
            <p className="sw-row"><Stars x10={p.rating_x10} size={16} /> <b>{(p.rating_x10 / 10).toLocaleString(ctx.locale, { minimumFractionDigits: 1 })}</b> <a href="#reviews">{t(`${p.review_count.toLocaleString(ctx.locale)} ratings`, `${p.review_count.toLocaleString(ctx.locale)} Bewertungen`)}</a></p>
            <div className="sw-price" data-testid="price">{ctx.money(v.price_cents)}</div>
            {variants.length > 1 ? (
              <>
                <p className="sw-small"><b>{t("Option", "Variante")}:</b> {v.label}</p>
                <div className="sw-variants" data-testid="variants">
                  {variants.map((x) => (
                    <Link key={x.sku} href={`/p/${p.slug}?v=${x.sku}`} className="sw-btn-2" aria-current={x.sku === v.sku ? "true" : undefined} data-testid="variant" style={x.sku === v.sku ? { borderColor: "#d98a1f", boxShadow: "0 0 0 2px #f2a33a55" } : undefined}>
                      {x.label} · {ctx.money(x.price_cents)}
                    </Link>
                  ))}
                </div>
              </>
            ) : null}
            <h2>{t("About this item", "Über diesen Artikel")}</h2>
            {p.description ? <p>{p.description}</p> : null}
            <table className="sw-specs" data-testid="specs">
              <tbody>
                {p.brand ? <tr><th>{t("Brand", "Marke")}</th><td>{p.brand}</td></tr> : null}
                {specs.map(([k, val]) => <tr key={k}><th>{k}</th><td>{val}</td></tr>)}
                <tr><th>{t("Item number", "Artikelnummer")}</th><td>{v.sku}</td></tr>
              </tbody>
            </table>
          </div>
          <aside className="sw-buybox">
            <div className="sw-price">{ctx.money(v.price_cents)}</div>
            <div className="sw-small">{v.price_cents >= 3500 ? <span className="sw-good">{t("FREE delivery", "KOSTENLOSE Lieferung")}</span> : t(`Free delivery on orders from ${ctx.money(3500)}`, `Kostenlose Lieferung ab ${ctx.money(3500)}`)}</div>
            <div className="sw-good">{t("In stock", "Auf Lager")}</div>
            <form action="/api/cart" method="post" className="sw-form" data-testid="add-form">
              <input type="hidden" name="action" value="add" />
              <input type="hidden" name="sku" value={v.sku} />
              <input type="hidden" name="back" value={here} />
              <label>{t("Quantity", "Menge")}
                <select name="qty" defaultValue="1">{Array.from({ length: 10 }, (_, i) => <option key={i} value={i + 1}>{i + 1}</option>)}</select>
              </label>
              <button type="submit" className="sw-btn" data-testid="add-to-cart">{t("Add to cart", "In den Warenkorb")}</button>
            </form>
            {p.subscribe ? (
              <form action="/api/subscriptions" method="post" className="sw-form sw-panel" style={{ margin: 0 }} data-testid="subscribe-form">
                <input type="hidden" name="_idem" value={idempotencyToken()} />
                <b>{t("Subscribe & Save", "Spar-Abo")}: {ctx.money(subPrice)}</b>
                <span className="sw-small sw-muted">{t(`Save ${SUBSCRIBE_DISCOUNT_PCT}% on every delivery. Skip or cancel any time.`, `${SUBSCRIBE_DISCOUNT_PCT} % auf jede Lieferung sparen. Jederzeit kündbar.`)}</span>
                <input type="hidden" name="action" value="subscribe" />
                <input type="hidden" name="sku" value={v.sku} />
                <input type="hidden" name="qty" value="1" />
                <input type="hidden" name="back" value={here} />
                <label>{t("Deliver every", "Lieferung alle")}
                  <select name="weeks" defaultValue="4">{SUBSCRIBE_WEEKS.map((w) => <option key={w} value={w}>{t(`${w} weeks`, `${w} Wochen`)}</option>)}</select>
                </label>
                <button type="submit" className="sw-btn-2" data-testid="subscribe">{t("Subscribe", "Abonnieren")}</button>
              </form>
            ) : null}
            <form action="/api/wishlist" method="post">
              <input type="hidden" name="product" value={p.id} />
              <input type="hidden" name="on" value={wished ? "0" : "1"} />
              <input type="hidden" name="back" value={here} />
              <button type="submit" className="sw-btn-2" data-testid="wishlist-toggle" data-on={wished ? "1" : "0"}>{wished ? t("Remove from wish list", "Vom Wunschzettel entfernen") : t("Add to wish list", "Auf den Wunschzettel")}</button>
            </form>
            {lastBought ? <p className="sw-small" data-testid="bought-before">{t("You last bought this on", "Zuletzt gekauft am")} <Link href={`/orders/${lastBought.order_number}`}>{ctx.date(lastBought.placed_at)}</Link></p> : null}
          </aside>
        </div>
        <section className="sw-panel" id="reviews">
          <h2 style={{ marginTop: 0 }}>{t("Customer reviews", "Kundenrezensionen")}</h2>
          {bought && !mine ? (
            <form action="/api/reviews" method="post" className="sw-form" style={{ maxWidth: 560, marginBottom: 14 }} data-testid="review-form">
              <input type="hidden" name="_idem" value={idempotencyToken()} />
              <b>{t("Review this product", "Dieses Produkt bewerten")}</b>
              <input type="hidden" name="product" value={p.id} />
              <input type="hidden" name="back" value={here} />
              <label>{t("Overall rating", "Gesamtbewertung")}
                <select name="rating" defaultValue="5">{[5, 4, 3, 2, 1].map((r) => <option key={r} value={r}>{"★".repeat(r)}{"☆".repeat(5 - r)}</option>)}</select>
              </label>
              <label>{t("Headline", "Überschrift")}<input name="headline" maxLength={120} required /></label>
              <label>{t("Your review", "Ihre Rezension")}<textarea name="body" rows={4} required /></label>
              <button type="submit" className="sw-btn">{t("Submit", "Absenden")}</button>
            </form>
          ) : null}
          {reviews.map((r) => (
            <div key={r.id} className="sw-review" data-testid="review" data-mine={r.user_id ? "1" : "0"}>
              <div className="sw-row"><b>{r.author}</b>{r.user_id ? <span className="sw-small sw-muted">({t("you", "Sie")})</span> : null}</div>
              <div className="sw-row"><Stars x10={r.rating * 10} /> <h4>{r.headline}</h4></div>
              <div className="sw-small sw-muted">{t("Reviewed on", "Rezensiert am")} {ctx.date(r.created_at)}{r.verified ? <> · <span className="sw-verified">{t("Verified purchase", "Verifizierter Kauf")}</span></> : null}</div>
              <p>{r.body}</p>
            </div>
          ))}
        </section>
        <h2>{t("Related products", "Ähnliche Produkte")}</h2>
        <div className="sw-grid">{related(p).map((x) => <ProductCard key={x.id} p={x} ctx={ctx} />)}</div>
      </main>
      <Footer ctx={ctx} />
    </>
  );
}

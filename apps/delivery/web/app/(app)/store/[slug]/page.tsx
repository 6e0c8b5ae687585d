import Link from "next/link";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { notFound } from "next/navigation";
import { Cover } from "@/delivery/components/Cover";
import { Header } from "@/delivery/components/Header";
import { cart, cartRestaurant, etaRange, menu, openAt, restaurantBySlug } from "@/delivery/lib/dash";
import { hour, money, priceLevel, stars } from "@/delivery/lib/format";
import { cuisineName } from "@/delivery/lib/i18n";
import { chrome, one, type SearchParams } from "@/delivery/lib/page";

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }) {
  const r = restaurantBySlug((await params).slug);
  return { title: r ? r.name : "Restaurant not found" };
}

export default async function StorePage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: SearchParams }) {
  const { slug } = await params;
  const sp = await searchParams;
  const error = errorMessage(sp);
  const { user, ctx, cartCount, w } = await chrome();
  const r = restaurantBySlug(slug);
  if (!r) notFound();
  const items = menu(r.id);
  const lines = cart();
  const inCart = cartRestaurant(lines);
  const [lo, hi] = etaRange(r);
  const open = openAt(r, ctx.now);
  const sections = [...new Set(items.map((i) => i.section))];
  const subtotal = lines.reduce((s, l) => s + l.qty * l.unit_price_cents, 0);
  return (
    <>
      <Header active="" name={user.full_name} cartCount={cartCount} city={ctx.city} w={w} />
      <main className="dbt-main dbt-store">
        <div className="dbt-store-hero">
          <Cover cuisine={r.cuisine} label={cuisineName(w, r.cuisine)} name={r.name} tall />
        </div>
        <div className="dbt-store-layout">
          <div>
            <h1 data-testid="restaurant-name">{r.name}</h1>
            <p className="dbt-muted">
              ★ {stars(ctx, r.rating_x10)} ({r.rating_count.toLocaleString(ctx.locale)} {w.ratings}) · {cuisineName(w, r.cuisine)} · {priceLevel(ctx, r.price_level)} · {r.neighbourhood}
            </p>
            <p className="dbt-muted">{r.address}</p>
            <div className="dbt-facts">
              <span><strong>{open ? `${lo}–${hi} min` : w.closedNow}</strong> {open ? w.delivery : `· ${w.opens} ${hour(ctx, r.opens)}`}</span>
              <span data-testid="delivery-fee" data-cents={r.delivery_fee_cents}><strong>{r.delivery_fee_cents ? money(ctx, r.delivery_fee_cents) : w.freeDelivery}</strong> {r.delivery_fee_cents ? w.deliveryFee : ""}</span>
              <span>{w.hours} {hour(ctx, r.opens)}–{hour(ctx, r.closes)}</span>
              <span>{w.smallOrderFee} {money(ctx, r.small_order_fee_cents)} {w.under} {money(ctx, r.minimum_cents)}</span>
            </div>
            {one(sp.added) ? (
              <p className="dbt-note" role="status" data-testid="added">
                {w.added} {one(sp.added)} {w.toCart} <Link href="/checkout">{w.goToCheckout}</Link>
              </p>
            ) : null}
            {error ? <p className="dbt-alert" role="alert">{error}</p> : null}
            <nav className="dbt-chips" aria-label="Menu sections">
              {sections.map((s) => (
                <a key={s} href={`#${s}`} className="dbt-chip">{w.sections[s] ?? s}</a>
              ))}
            </nav>
            {sections.map((s) => (
              <section key={s} id={s} className="dbt-menu-section">
                <h2 className="dbt-h2">{w.sections[s] ?? s}</h2>
                <div className="dbt-menu">
                  {items
                    .filter((i) => i.section === s)
                    .map((i) => (
                      <div key={i.id} className="dbt-dish" data-testid="dish" data-dish-id={i.dish_id} data-cents={i.price_cents}>
                        <div>
                          <Link href={`/store/${r.slug}/item/${i.id}`} className="dbt-dish-name">{i.name}</Link>
                          {i.popular ? <span className="dbt-badge">{w.popular}</span> : null}
                          <div className="dbt-muted dbt-small">{i.options.length ? i.options.map((g) => g.label).join(" · ") : "\u00a0"}</div>
                          <div className="dbt-price">{money(ctx, i.price_cents)}</div>
                        </div>
                        {i.options.length ? (
                          <Link href={`/store/${r.slug}/item/${i.id}`} className="dbt-add" aria-label={`Choose options for ${i.name}`}>+</Link>
                        ) : (
                          <form action="/api/cart" method="post">
                            <input type="hidden" name="_idem" value={idempotencyToken()} />
                            <input type="hidden" name="action" value="add" />
                            <input type="hidden" name="item" value={i.id} />
                            <input type="hidden" name="qty" value="1" />
                            <input type="hidden" name="back" value={`/store/${r.slug}`} />
                            {inCart && inCart.id !== r.id ? <input type="hidden" name="replace" value="0" /> : null}
                            <button type="submit" className="dbt-add" aria-label={`Add ${i.name}`}>+</button>
                          </form>
                        )}
                      </div>
                    ))}
                </div>
              </section>
            ))}
          </div>
          <aside className="dbt-side">
            <h2 className="dbt-h2">{w.yourCart}</h2>
            {!lines.length ? <p className="dbt-muted">{w.cartEmpty}</p> : null}
            {inCart && inCart.id !== r.id ? <p className="dbt-muted">{w.cartFrom} {inCart.name}.</p> : null}
            {lines.map((l) => (
              <div key={l.id} className="dbt-side-line">
                <span>{l.qty} × {l.item.name}</span>
                <span>{money(ctx, l.qty * l.unit_price_cents)}</span>
              </div>
            ))}
            {lines.length ? (
              <>
                <div className="dbt-side-line dbt-strong"><span>{w.subtotal}</span><span>{money(ctx, subtotal)}</span></div>
                <Link href="/checkout" className="dbt-primary dbt-block">{w.checkout}</Link>
              </>
            ) : null}
          </aside>
        </div>
      </main>
    </>
  );
}

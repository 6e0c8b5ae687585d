import Link from "next/link";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { Cover } from "@/delivery/components/Cover";
import { Header } from "@/delivery/components/Header";
import { cuisines, etaRange, openAt, orderLines, orders, restaurants, usualOrder } from "@/delivery/lib/dash";
import { day, hour, money, priceLevel, stars } from "@/delivery/lib/format";
import { cuisineName } from "@/delivery/lib/i18n";
import { chrome, one, type SearchParams } from "@/delivery/lib/page";

export const metadata = { title: "Restaurants near you" };

export default async function Home({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const error = errorMessage(sp);
  const { user, ctx, cartCount, w } = await chrome();
  const cuisine = one(sp.cuisine);
  const q = one(sp.q).slice(0, 80);
  const list = restaurants({ cuisine, q });
  const usual = !cuisine && !q ? usualOrder() : undefined;
  const usualLines = usual ? orderLines(usual.id) : [];
  // Orders come newest first: keep each restaurant's first (latest) one (a Map built from them would keep the oldest).
  const seen = new Set<number>();
  const recent = !cuisine && !q ? orders().filter((o) => !o.usual && !seen.has(o.restaurant_id) && seen.add(o.restaurant_id)).slice(0, 3) : [];
  const first = user.full_name.split(" ")[0];
  return (
    <>
      <Header active="/" name={user.full_name} cartCount={cartCount} city={ctx.city} w={w} q={q} />
      <main className="dbt-main">
        {error ? <p className="dbt-alert" role="alert">{error}</p> : null}
        {usual ? (
          <section className="dbt-usual" data-testid="usual-card" data-order-id={usual.order_id}>
            <div>
              <p className="dbt-eyebrow">{w.yourUsual}, {first}</p>
              <h2>{usual.restaurant_name}</h2>
              <p className="dbt-muted" data-testid="usual-items">{usualLines.map((l) => `${l.qty > 1 ? `${l.qty} × ` : ""}${l.name}`).join(" · ")}</p>
              <p className="dbt-muted">{w.lastOrdered} {day(ctx, usual.placed_at)} · {money(ctx, usual.total_cents)}</p>
            </div>
            <div className="dbt-usual-actions">
              <form action={`/api/orders/${usual.id}/reorder`} method="post">
                <input type="hidden" name="_idem" value={idempotencyToken()} />
                <input type="hidden" name="mode" value="now" />
                <input type="hidden" name="back" value="home" />
                <button type="submit" className="dbt-primary" data-testid="reorder-usual">{w.reorderNow}</button>
              </form>
              <form action={`/api/orders/${usual.id}/reorder`} method="post">
                <input type="hidden" name="_idem" value={idempotencyToken()} />
                <input type="hidden" name="mode" value="cart" />
                <input type="hidden" name="back" value="home" />
                <button type="submit" className="dbt-secondary">{w.reviewInCart}</button>
              </form>
            </div>
          </section>
        ) : null}
        {recent.length ? (
          <section>
            <h2 className="dbt-h2">{w.orderAgain}</h2>
            <div className="dbt-again">
              {recent.map((o) => (
                <Link key={o.id} href={`/store/${o.restaurant_slug}`} className="dbt-again-card">
                  <strong>{o.restaurant_name}</strong>
                  <span className="dbt-muted">{day(ctx, o.placed_at)} · {money(ctx, o.total_cents)}</span>
                </Link>
              ))}
            </div>
          </section>
        ) : null}
        <nav className="dbt-chips" aria-label="Cuisines">
          <Link href="/" className={!cuisine ? "dbt-chip dbt-chip-on" : "dbt-chip"}>{w.all}</Link>
          {cuisines().map((c) => (
            <Link key={c.cuisine} href={`/?cuisine=${encodeURIComponent(c.cuisine)}`} className={cuisine === c.cuisine ? "dbt-chip dbt-chip-on" : "dbt-chip"} data-testid="cuisine-chip">
              {cuisineName(w, c.cuisine)}
            </Link>
          ))}
        </nav>
        <h2 className="dbt-h2">
          {q ? <>{w.resultsFor} “{q}”</> : cuisine ? <>{cuisineName(w, cuisine)} · {w.nearYou}</> : <>{w.allIn} {ctx.city}</>}{" "}
          <span className="dbt-muted" data-testid="restaurant-count">{list.length}</span>
        </h2>
        {list.length === 0 ? <p className="dbt-empty">{w.noMatch}</p> : null}
        <div className="dbt-grid">
          {list.map((r) => {
            const [lo, hi] = etaRange(r);
            const open = openAt(r, ctx.now);
            return (
              <Link key={r.id} href={`/store/${r.slug}`} className="dbt-card" data-testid="restaurant-card" data-slug={r.slug}>
                <Cover cuisine={r.cuisine} label={cuisineName(w, r.cuisine)} name={r.name} />
                <div className="dbt-card-body">
                  <div className="dbt-card-title">
                    <strong>{r.name}</strong>
                    <span className="dbt-rating">★ {stars(ctx, r.rating_x10)}</span>
                  </div>
                  <span className="dbt-muted">
                    {cuisineName(w, r.cuisine)} · {priceLevel(ctx, r.price_level)} · {r.neighbourhood}
                  </span>
                  <span className="dbt-muted">
                    {open ? `${lo}–${hi} min` : `${w.opens} ${hour(ctx, r.opens)}`} · {r.delivery_fee_cents ? `${money(ctx, r.delivery_fee_cents)} ${w.delivery}` : w.freeDelivery}
                  </span>
                </div>
              </Link>
            );
          })}
        </div>
      </main>
    </>
  );
}

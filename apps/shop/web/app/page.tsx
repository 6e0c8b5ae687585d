import Link from "next/link";
import { Footer, Header } from "@/shop/components/Brand";
import { Picture, ProductCard } from "@/shop/components/Product";
import { shell } from "@/shop/lib/page";
import { buyAgain, ordersOf, popular, trackingOf, wishlistOf } from "@/shop/lib/shop";

export default async function Home() {
  const { user, ctx, cart, depts } = await shell();
  const t = ctx.t;
  const recent = ordersOf(user.id).slice(0, 12);
  const onTheWay = recent.filter((o) => trackingOf(o, ctx.now) !== "delivered");
  const again = buyAgain(user.id, 6);
  const wish = wishlistOf(user.id).slice(0, 4);
  const first = user.full_name.split(" ")[0];
  return (
    <>
      <Header ctx={ctx} name={user.full_name} cart={cart} depts={depts} />
      <main className="sw-page">
        <section className="sw-hero">
          <div>
            <h1>{t(`Welcome back, ${first}`, `Willkommen zurück, ${first}`)}</h1>
            <p>{t(`Free shipping on orders from ${ctx.money(3500)}. Free returns within 30 days.`, `Kostenloser Versand ab ${ctx.money(3500)}. Kostenlose Rücksendung innerhalb von 30 Tagen.`)}</p>
          </div>
          <Link href="/orders" className="sw-btn">{t("Your orders", "Ihre Bestellungen")}</Link>
        </section>
        {onTheWay.length ? (
          <section className="sw-panel" data-testid="on-the-way">
            <h2 style={{ marginTop: 0 }}>{t("On the way", "Unterwegs")}</h2>
            {onTheWay.map((o) => (
              <p key={o.id} data-testid="arriving" data-order={o.order_number}>
                <Link href={`/orders/${o.order_number}`}><b>{o.order_number}</b></Link> · {trackingOf(o, ctx.now) === "shipped" ? t("Shipped", "Versandt") : t("Ordered", "Bestellt")} · {t("Arriving", "Lieferung")} {ctx.day(o.delivered_at)} · {o.carrier} {o.tracking_number}
              </p>
            ))}
          </section>
        ) : null}
        <h2>{t("Shop by department", "Nach Kategorie einkaufen")}</h2>
        <div className="sw-tiles">
          {depts.map((d) => {
            const top = popular(d.key, 1)[0];
            return (
              <Link key={d.key} href={`/s?dept=${d.key}`} className="sw-tile" data-testid="dept-tile">
                {top ? <Picture p={top} size={90} /> : null}
                {d.name}
              </Link>
            );
          })}
        </div>
        {again.length ? (
          <>
            <h2>{t("Buy it again", "Erneut kaufen")}</h2>
            <div className="sw-grid">{again.map((p) => <ProductCard key={p.id} p={p} ctx={ctx} />)}</div>
          </>
        ) : null}
        {wish.length ? (
          <>
            <h2>{t("From your wish list", "Von Ihrem Wunschzettel")}</h2>
            <div className="sw-grid">{wish.map((p) => <ProductCard key={p.id} p={p} ctx={ctx} />)}</div>
          </>
        ) : null}
        <h2>{t("Popular right now", "Gerade beliebt")}</h2>
        <div className="sw-grid">{popular(null, 12).map((p) => <ProductCard key={p.id} p={p} ctx={ctx} />)}</div>
      </main>
      <Footer ctx={ctx} />
    </>
  );
}

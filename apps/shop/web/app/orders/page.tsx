import Link from "next/link";
import { Alert } from "@persona/ui";
import { Footer, Header } from "@/shop/components/Brand";
import { statusText } from "@/shop/components/OrderBits";
import { shell } from "@/shop/lib/page";
import { one, type SearchParams } from "@/shop/lib/params";
import { itemsOf, orderYears, ordersOf, trackingOf } from "@/shop/lib/shop";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

const PER_PAGE = 20;

export const metadata = { title: "Your orders" };

export default async function OrdersPage({ searchParams }: { searchParams: SearchParams }) {
  const { user, ctx, cart, depts } = await shell();
  const t = ctx.t;
  const sp = await searchParams;
  const error = errorMessage(sp);
  const years = orderYears(user.id);
  const year = years.includes(one(sp.year)) ? one(sp.year) : "";
  const all = ordersOf(user.id, year || undefined);
  const pages = Math.max(1, Math.ceil(all.length / PER_PAGE));
  const pageNo = Math.min(pages, Math.max(1, /^\d{1,4}$/.test(one(sp.page)) ? Number(one(sp.page)) : 1));
  const list = all.slice((pageNo - 1) * PER_PAGE, pageNo * PER_PAGE);
  const pageLink = (n: number) => `/orders?${year ? `year=${year}&` : ""}page=${n}`;
  return (
    <>
      <Header ctx={ctx} name={user.full_name} cart={cart} depts={depts} />
      <main className="sw-page" style={{ maxWidth: 980 }}>
        <h1>{t("Your orders", "Ihre Bestellungen")}</h1>
        {error ? <Alert tone="error" className="sw-alert" data-testid="error">{error}</Alert> : null}
        <nav className="sw-tabs" aria-label={t("Years", "Jahre")}>
          <Link href="/orders" className={!year ? "is-active" : ""}>{t("All orders", "Alle Bestellungen")}</Link>
          {years.map((y) => <Link key={y} href={`/orders?year=${y}`} className={y === year ? "is-active" : ""} data-testid="year-tab">{y}</Link>)}
        </nav>
        <p className="sw-muted" data-testid="order-count" data-count={all.length}>{t(`${all.length} orders`, `${all.length} Bestellungen`)}{year ? t(` placed in ${year}`, ` im Jahr ${year}`) : ""}</p>
        {list.map((o) => {
          const state = trackingOf(o, ctx.now);
          const items = itemsOf(o.id);
          return (
            <article key={o.id} className="sw-order" data-testid="order" data-order={o.order_number} data-total={o.total_cents} data-state={state} data-items={items.length}>
              <div className="sw-order-head">
                <div>{t("Order placed", "Bestellt am")}<b>{ctx.date(o.placed_at)}</b></div>
                <div>{t("Total", "Summe")}<b>{ctx.money(o.total_cents)}</b></div>
                <div>{t("Ship to", "Lieferung an")}<b>{o.ship_name}</b></div>
                <div className="sw-order-no">{t("Order #", "Bestellnr.")} {o.order_number}<b><Link href={`/orders/${o.order_number}`}>{t("View order details", "Details anzeigen")}</Link> · <a href={`/orders/${o.order_number}/invoice`}>{t("Invoice", "Rechnung")}</a></b></div>
              </div>
              <div className="sw-order-body">
                <p className={`sw-status ${state}`}>{statusText(ctx, o, state)}</p>
                {o.gift_for ? <p className="sw-small">🎁 {t(`Gift for ${o.gift_for}`, `Geschenk für ${o.gift_for}`)}</p> : null}
                {items.map((i) => (
                  <p key={i.id} style={{ margin: "3px 0" }}>{i.qty > 1 ? `${i.qty} × ` : ""}<Link href={`/p/${i.slug}`}>{i.name}</Link>{i.variant ? <span className="sw-muted"> · {i.variant}</span> : null}</p>
                ))}
                <form action="/api/reorder" method="post" style={{ marginTop: 8 }}>
                  <input type="hidden" name="_idem" value={idempotencyToken()} />
                  <input type="hidden" name="order" value={o.order_number} />
                  <button type="submit" className="sw-btn-2">{t("Buy it again", "Erneut kaufen")}</button>
                </form>
              </div>
            </article>
          );
        })}
        {pages > 1 ? (
          <nav className="sw-pages" aria-label={t("Pages", "Seiten")}>
            {pageNo > 1 ? <Link href={pageLink(pageNo - 1)}>‹ {t("Previous", "Zurück")}</Link> : null}
            <span className="is-active">{pageNo} / {pages}</span>
            {pageNo < pages ? <Link href={pageLink(pageNo + 1)} data-testid="next-page">{t("Next", "Weiter")} ›</Link> : null}
          </nav>
        ) : null}
      </main>
      <Footer ctx={ctx} />
    </>
  );
}

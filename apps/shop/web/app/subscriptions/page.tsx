import Link from "next/link";
import { Alert } from "@persona/ui";
import { Footer, Header } from "@/shop/components/Brand";
import { shell } from "@/shop/lib/page";
import { one, type SearchParams } from "@/shop/lib/params";
import { popular, subscriptionsOf } from "@/shop/lib/shop";
import { ProductCard } from "@/shop/components/Product";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

export const metadata = { title: "Subscribe & Save" };

export default async function SubscriptionsPage({ searchParams }: { searchParams: SearchParams }) {
  const { user, ctx, cart, depts } = await shell();
  const t = ctx.t;
  const sp = await searchParams;
  const error = errorMessage(sp);
  const subs = subscriptionsOf(user.id);
  return (
    <>
      <Header ctx={ctx} name={user.full_name} cart={cart} depts={depts} />
      <main className="sw-page" style={{ maxWidth: 980 }}>
        <h1>{t("Subscribe & Save", "Spar-Abo")}</h1>
        {error ? <Alert tone="error" className="sw-alert" data-testid="error">{error}</Alert> : null}
        {one(sp.subscribed) ? <Alert tone="success" className="sw-note" data-testid="subscribed">{t("You're subscribed. We'll charge your card when each delivery ships.", "Abo eingerichtet. Ihre Karte wird beim Versand jeder Lieferung belastet.")}</Alert> : null}
        {one(sp.cancelled) ? <Alert tone="success" className="sw-note">{t("Subscription cancelled.", "Abo gekündigt.")}</Alert> : null}
        <div className="sw-panel">
          {subs.length === 0 ? <p className="sw-empty">{t("No subscriptions yet. Household essentials and coffee can be delivered on a schedule at 5 % off.", "Noch keine Abos. Haushaltsartikel und Kaffee gibt es im Abo 5 % günstiger.")}</p> : null}
          {subs.map((s) => (
            <div key={s.id} className="sw-line" style={{ gridTemplateColumns: "1fr auto" }} data-testid="subscription" data-sku={s.sku} data-weeks={s.every_weeks} data-status={s.status}>
              <div>
                <Link href={`/p/${s.slug}`}><b>{s.title}</b></Link>{s.label ? ` · ${s.label}` : ""}
                <div className="sw-small">{t(`Every ${s.every_weeks} weeks · ${s.qty} per delivery · ${ctx.money(s.price_cents)} each`, `Alle ${s.every_weeks} Wochen · ${s.qty} pro Lieferung · je ${ctx.money(s.price_cents)}`)}</div>
                <div className="sw-small sw-muted">{s.status === "active" ? t(`Next delivery ${ctx.day(s.next_date)}`, `Nächste Lieferung ${ctx.day(s.next_date)}`) : t("Cancelled", "Gekündigt")}</div>
              </div>
              {s.status === "active" ? (
                <form action="/api/subscriptions" method="post">
                  <input type="hidden" name="_idem" value={idempotencyToken()} />
                  <input type="hidden" name="action" value="cancel" /><input type="hidden" name="id" value={s.id} />
                  <button type="submit" className="sw-btn-2">{t("Cancel subscription", "Abo kündigen")}</button>
                </form>
              ) : null}
            </div>
          ))}
        </div>
        <h2>{t("Popular for Subscribe & Save", "Beliebt im Spar-Abo")}</h2>
        <div className="sw-grid">{popular("household", 6).map((p) => <ProductCard key={p.id} p={p} ctx={ctx} />)}</div>
      </main>
      <Footer ctx={ctx} />
    </>
  );
}

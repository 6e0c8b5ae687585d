import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { Header } from "@/delivery/components/Header";
import { addresses, cards, promoProblem, promos } from "@/delivery/lib/dash";
import { day, money } from "@/delivery/lib/format";
import { chrome, one, type SearchParams } from "@/delivery/lib/page";

export const metadata = { title: "Account" };

export default async function AccountPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const error = errorMessage(sp);
  const { user, ctx, cartCount, w } = await chrome();
  return (
    <>
      <Header active="/account" name={user.full_name} cartCount={cartCount} city={ctx.city} w={w} />
      <main className="dbt-main dbt-narrow">
        <h1>{user.full_name}</h1>
        <p className="dbt-muted">{user.email} · member since {day(ctx, `${user.member_since}T12:00:00`)} · default tip {user.tip_percent}%</p>
        {one(sp.saved) ? <p className="dbt-note" role="status">Address saved.</p> : null}
        {error ? <p className="dbt-alert" role="alert" data-testid="error">{error}</p> : null}
        <section className="dbt-panel">
          <h2 className="dbt-h2">Addresses</h2>
          {addresses().map((a) => (
            <p key={a.id} data-testid="address-row"><strong>{a.label}</strong> · {a.line}{a.is_default ? " (default)" : ""}</p>
          ))}
          <form action="/api/addresses" method="post" className="dbt-form">
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            <label>Label<input name="label" maxLength={40} required defaultValue={one(sp.label)} /></label>
            <label>Address<input name="line" maxLength={200} required defaultValue={one(sp.line)} placeholder="Street and number, city, postcode" /></label>
            <label>Drop-off instructions<input name="instructions" maxLength={200} /></label>
            <button type="submit" className="dbt-secondary">Save address</button>
          </form>
        </section>
        <section className="dbt-panel">
          <h2 className="dbt-h2">Payment</h2>
          {cards().map((c) => (
            <p key={c.id} data-testid="card-row" data-last4={c.last4}>{c.label} · expires {c.expiry}{c.is_default ? " (default)" : ""}</p>
          ))}
        </section>
        <section className="dbt-panel">
          <h2 className="dbt-h2">Promo codes</h2>
          {promos().map((p) => {
            const problem = promoProblem(ctx, p, Number.MAX_SAFE_INTEGER);
            return (
              <div key={p.code} className="dbt-promo" data-testid="promo" data-code={p.code}>
                <strong>{p.code}</strong>
                <span>
                  {p.kind === "percent" ? `${p.value}% off (up to ${money(ctx, p.max_off_cents)})` : p.kind === "amount" ? `${money(ctx, p.value)} off` : "Free delivery"} · orders from {money(ctx, p.min_subtotal_cents)}
                  {p.first_order_only ? " · first order only" : ""}
                </span>
                <span className="dbt-muted">{problem ? problem : `Valid until ${day(ctx, p.expires_at)}`}</span>
              </div>
            );
          })}
        </section>
      </main>
    </>
  );
}

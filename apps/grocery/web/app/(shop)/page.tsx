import Link from "next/link";
import { w } from "@/grocery/lib/words";
import { Header } from "@/grocery/components/Header";
import { requireUser } from "@/grocery/lib/auth";
import { shopContext } from "@/grocery/lib/context";
import { hour, money, windowText } from "@/grocery/lib/format";
import { cartCounts, orders, stores } from "@/grocery/lib/grocery";

export const metadata = { title: "Stores" };

function hours(ctx: Parameters<typeof hour>[0], open: string, close: string): string {
  return `${hour(ctx, open)} – ${close === "24:00" ? w(ctx.locale, "midnight") : hour(ctx, close)}`;
}

/** The store picker: every partner store with hours, delivery area and the cart there; the last order. */
export default async function StoresPage() {
  const user = await requireUser();
  const ctx = shopContext();
  const counts = cartCounts();
  const last = orders()[0];
  const first = ctx.userName.split(" ")[0];
  return (
    <>
      <Header active="/" name={user.full_name} locale={ctx.locale} />
      <main className="bf-main">
        <section className="bf-hero">
          <div>
            <h1>{ctx.locale.startsWith("de") ? `Hallo ${first}, wo kaufen wir heute ein?` : `Hi ${first}, where are we shopping today?`}</h1>
            <p className="bf-muted">{w(ctx.locale, "Delivering to")} <strong data-testid="address">{user.address}</strong></p>
          </div>
          {last ? (
            <div className="bf-hero-last" data-testid="last-order">
              <div className="bf-small bf-muted">{w(ctx.locale, "Your last order")}</div>
              <div><strong>{last.store_name}</strong> · {last.item_count} items · {money(ctx, last.total_cents)}</div>
              <div className="bf-small">{windowText(ctx, last.window_start, last.window_end)}</div>
              <Link href={`/orders/${last.order_id}`}>{w(ctx.locale, "View order")}</Link>
            </div>
          ) : null}
        </section>
        <h2>{w(ctx.locale, "Stores near you in")} {ctx.city}</h2>
        <ul className="bf-stores" data-testid="stores">
          {stores().map((s) => (
            <li key={s.key} className="bf-store" data-testid="store" data-key={s.key}>
              <div className="bf-store-badge" style={{ background: s.colour }} aria-hidden="true">{s.name.split(" ").map((w) => w[0]).slice(0, 2).join("")}</div>
              <div className="bf-store-body">
                <h3>{s.name}{s.key === ctx.usualStore ? <span className="bf-chip">{w(ctx.locale, "Your usual")}</span> : null}</h3>
                <div className="bf-muted bf-small">{s.tagline}</div>
                <div className="bf-small">{s.address}</div>
                <div className="bf-small">{w(ctx.locale, "Open")} {hours(ctx, s.opens, s.closes)} · {w(ctx.locale, "delivers within")} {s.radius} {s.radius_unit} · {w(ctx.locale, s.pickup ? "Delivery or pickup" : "Delivery only")}</div>
                {counts.get(s.id) ? <div className="bf-small"><Link href={`/cart?store=${s.key}`}>{counts.get(s.id)} items in your cart</Link></div> : null}
              </div>
              <Link href={`/store/${s.key}`} className="bf-primary">{w(ctx.locale, "Shop")}</Link>
            </li>
          ))}
        </ul>
      </main>
    </>
  );
}

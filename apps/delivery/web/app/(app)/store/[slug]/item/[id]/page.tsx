import Link from "next/link";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { notFound } from "next/navigation";
import { Header } from "@/delivery/components/Header";
import { cartRestaurant, MAX_NOTE, MAX_QTY, menuItem, restaurantBySlug } from "@/delivery/lib/dash";
import { money } from "@/delivery/lib/format";
import { idValue } from "@/delivery/lib/http";
import { chrome, type SearchParams } from "@/delivery/lib/page";

export default async function ItemPage({ params, searchParams }: { params: Promise<{ slug: string; id: string }>; searchParams: SearchParams }) {
  const { slug, id } = await params;
  const sp = await searchParams;
  const error = errorMessage(sp);
  const { user, ctx, cartCount, w } = await chrome();
  const r = restaurantBySlug(slug);
  const item = menuItem(idValue(id));
  if (!r || !item || item.restaurant_id !== r.id) notFound();
  const other = cartRestaurant();
  const back = `/store/${r.slug}/item/${item.id}`;
  return (
    <>
      <Header active="" name={user.full_name} cartCount={cartCount} city={ctx.city} w={w} />
      <main className="dbt-main dbt-narrow">
        <p><Link href={`/store/${r.slug}`}>← {r.name}</Link></p>
        <h1 data-testid="item-name">{item.name}</h1>
        <p className="dbt-price" data-testid="item-price" data-cents={item.price_cents}>{money(ctx, item.price_cents)}</p>
        {error ? <p className="dbt-alert" role="alert" data-testid="error">{error}</p> : null}
        <form action="/api/cart" method="post" className="dbt-form" data-testid="item-form">
          <input type="hidden" name="_idem" value={idempotencyToken()} />
          <input type="hidden" name="action" value="add" />
          <input type="hidden" name="item" value={item.id} />
          <input type="hidden" name="back" value={back} />
          {item.options.map((g) => (
            <fieldset key={g.key} className="dbt-options">
              <legend>
                {g.label} <span className="dbt-muted dbt-small">{g.pick === "one" ? w.required : w.optional(g.max)}</span>
              </legend>
              {g.choices.map((c, k) => (
                <label key={c.id} className="dbt-choice">
                  <input type={g.pick === "one" ? "radio" : "checkbox"} name={g.pick === "one" ? `option:${g.key}` : "option"} value={`${g.key}:${c.id}`} defaultChecked={g.pick === "one" && k === 0} />
                  <span>{c.label}</span>
                  <span className="dbt-muted">{c.price_cents ? `+${money(ctx, c.price_cents)}` : ""}</span>
                </label>
              ))}
            </fieldset>
          ))}
          <label>
            {w.specialInstructions}
            <textarea name="instructions" maxLength={MAX_NOTE} rows={2} placeholder={w.instructionsHint} />
          </label>
          <label className="dbt-qty">
            {w.quantity}
            <input name="qty" type="number" min={1} max={MAX_QTY} defaultValue={1} required />
          </label>
          {other && other.id !== r.id ? (
            <label className="dbt-choice">
              <input type="checkbox" name="replace" value="1" />
              <span>Start a new cart (removes the items from {other.name})</span>
            </label>
          ) : null}
          <button type="submit" className="dbt-primary" data-testid="add-to-cart">{w.addToCart}</button>
        </form>
      </main>
    </>
  );
}

import Link from "next/link";
import { w } from "@/grocery/lib/words";
import type { ShopContext } from "@/grocery/lib/context";
import { money, unitPrice } from "@/grocery/lib/format";
import type { PricedProduct } from "@/grocery/lib/grocery";

const DEPT_HUE: Record<string, string> = {
  produce: "#dff3e3", dairy: "#eef4fb", meat: "#fbe9e7", bakery: "#fbf1df", pantry: "#f5efe6", snacks: "#fff4d6",
  beverages: "#e4f2f7", frozen: "#e8f0fb", household: "#eef0f2", personal: "#f6eaf4", pets: "#f2efe4",
};
const DEPT_ICON: Record<string, string> = {
  produce: "🥬", dairy: "🥛", meat: "🥩", bakery: "🥖", pantry: "🥫", snacks: "🍪", beverages: "🧃", frozen: "🧊",
  household: "🧻", personal: "🧴", pets: "🐾",
};

/** One product card of a store's shelf: picture block, price, unit price, name, size, add button. */
export function ProductTile({ ctx, p, storeKey, back }: { ctx: ShopContext; p: PricedProduct; storeKey: string; back: string }) {
  return (
    <li className="bf-tile" data-testid="product" data-id={p.id}>
      <Link href={`/product/${p.id}?store=${storeKey}`} className="bf-tile-link">
        <div className="bf-tile-pic" style={{ background: DEPT_HUE[p.department] ?? "#eee" }} aria-hidden="true">{DEPT_ICON[p.department] ?? "🛍️"}</div>
        <div className="bf-price" data-testid="price">{money(ctx, p.price_cents)}</div>
        <div className="bf-unit">{unitPrice(ctx, p.price_cents, p.unit_count, p.unit_label)}</div>
        {p.brand ? <div className="bf-brandname">{p.brand}</div> : null}
        <div className="bf-title">{p.title}</div>
        <div className="bf-size">{p.size}</div>
      </Link>
      <form action="/api/cart" method="post" className="bf-add">
        <input type="hidden" name="action" value="add" />
        <input type="hidden" name="store" value={storeKey} />
        <input type="hidden" name="product" value={p.id} />
        <input type="hidden" name="back" value={back} />
        <button type="submit" aria-label={`Add ${p.title} to cart`}>{w(ctx.locale, "+ Add")}</button>
      </form>
    </li>
  );
}

export { DEPT_HUE, DEPT_ICON };

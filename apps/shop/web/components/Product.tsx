import Link from "next/link";
import type { ShopContext } from "@/shop/lib/context";
import type { Product } from "@/shop/lib/shop";

/** Five stars filled to `x10` / 10 (46 = 4.6 stars). */
export function Stars({ x10, size = 14 }: { x10: number; size?: number }) {
  const pct = Math.max(0, Math.min(100, (x10 / 50) * 100));
  const star = "M10 1.5l2.6 5.5 6 .7-4.4 4.1 1.2 5.9L10 14.8 4.6 17.7l1.2-5.9L1.4 7.7l6-.7z";
  return (
    <span className="sw-stars" style={{ width: size * 5, height: size }} aria-label={`${(x10 / 10).toFixed(1)} / 5`} role="img">
      <svg width={size * 5} height={size} viewBox="0 0 100 20" aria-hidden="true">
        <defs>
          <clipPath id={`c${x10}`}><rect width={pct} height="20" /></clipPath>
        </defs>
        {[0, 1, 2, 3, 4].map((i) => <path key={i} d={star} transform={`translate(${i * 20} 0)`} fill="#d9dde3" />)}
        <g clipPath={`url(#c${x10})`}>{[0, 1, 2, 3, 4].map((i) => <path key={i} d={star} transform={`translate(${i * 20} 0)`} fill="#f2a33a" />)}</g>
      </svg>
    </span>
  );
}

const HUES: Record<string, number> = { electronics: 212, home: 28, outdoor: 140, apparel: 200, beauty: 330, office: 48, toys: 8, books: 262, garden: 100, pets: 34, food: 18, household: 185 };

/** A product picture: the department's colour and the line's initials on a soft tile (no photos ship). */
export function Picture({ p, size = 160 }: { p: Pick<Product, "department" | "line" | "brand" | "id">; size?: number }) {
  const hue = HUES[p.department] ?? 210;
  const n = parseInt(p.id.slice(-3), 36) % 40;
  return (
    <svg className="sw-pic" width={size} height={size} viewBox="0 0 100 100" aria-hidden="true">
      <rect width="100" height="100" rx="8" fill={`hsl(${hue} 45% 95%)`} />
      <circle cx={30 + n} cy="42" r="26" fill={`hsl(${hue} 55% 82%)`} />
      <rect x="22" y="52" width="56" height="26" rx="6" fill={`hsl(${hue} 50% 62%)`} />
      <text x="50" y="70" textAnchor="middle" fontSize="13" fontWeight="700" fill="#fff" fontFamily="system-ui, sans-serif">{p.brand.split(" ")[0].slice(0, 9)}</text>
    </svg>
  );
}

export function ProductCard({ p, ctx }: { p: Product; ctx: ShopContext }) {
  return (
    <article className="sw-card" data-testid="product-card" data-slug={p.slug} data-price={p.min_price_cents} data-rating={p.rating_x10} data-brand={p.brand}>
      <Link href={`/p/${p.slug}`} className="sw-card-pic"><Picture p={p} /></Link>
      <Link href={`/p/${p.slug}`} className="sw-card-title">{p.title}</Link>
      <div className="sw-card-rating"><Stars x10={p.rating_x10} /> <span className="sw-muted">{p.review_count.toLocaleString(ctx.locale)}</span></div>
      <div className="sw-price">{ctx.money(p.min_price_cents)}</div>
      {p.subscribe ? <div className="sw-small sw-muted">{ctx.t("Subscribe & Save 5 %", "Spar-Abo: 5 % sparen")}</div> : null}
    </article>
  );
}

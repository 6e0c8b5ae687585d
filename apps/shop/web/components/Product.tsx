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

/** A simple drawing of what the department sells, in a 100 x 100 box (fill: the tile's strong colour). */
function Glyph({ dept, fill }: { dept: string; fill: string }) {
  const white = "#ffffff";
  switch (dept) {
    case "electronics":
      return <g><rect x="30" y="22" width="40" height="58" rx="7" fill={fill} /><rect x="35" y="29" width="30" height="40" rx="2" fill={white} opacity=".85" /><circle cx="50" cy="74" r="3" fill={white} /></g>;
    case "home":
      return <g><path d="M28 40h36v26a12 12 0 0 1-12 12H40a12 12 0 0 1-12-12z" fill={fill} /><path d="M64 46h6a8 8 0 0 1 0 16h-6" fill="none" stroke={fill} strokeWidth="5" /><path d="M38 24q4 6 0 10M48 22q4 6 0 10" stroke={fill} strokeWidth="3" fill="none" strokeLinecap="round" /></g>;
    case "outdoor":
      return <g><path d="M12 78 40 32l14 22 8-12 26 36z" fill={fill} /><path d="M40 32l-7 12 7-3 7 3z" fill={white} /><circle cx="74" cy="26" r="8" fill={fill} opacity=".55" /></g>;
    case "apparel":
      return <path d="M36 22 22 30l-8 16 12 6 6-8v36h36V44l6 8 12-6-8-16-14-8q-6 8-14 8t-14-8z" fill={fill} />;
    case "beauty":
      return <g><rect x="38" y="20" width="24" height="12" rx="3" fill={fill} opacity=".7" /><rect x="30" y="32" width="40" height="48" rx="10" fill={fill} /><rect x="38" y="46" width="24" height="16" rx="3" fill={white} opacity=".8" /></g>;
    case "office":
      return <g><rect x="28" y="18" width="44" height="62" rx="4" fill={fill} /><rect x="28" y="18" width="9" height="62" fill={white} opacity=".35" /><path d="M44 34h20M44 44h20M44 54h14" stroke={white} strokeWidth="3" strokeLinecap="round" /></g>;
    case "toys":
      return <g><rect x="20" y="52" width="28" height="28" rx="4" fill={fill} /><rect x="52" y="52" width="28" height="28" rx="4" fill={fill} opacity=".7" /><rect x="36" y="22" width="28" height="28" rx="4" fill={fill} opacity=".85" /><circle cx="50" cy="36" r="5" fill={white} /></g>;
    case "books":
      return <g><path d="M18 26q16-6 32 2v52q-16-8-32-2z" fill={fill} /><path d="M82 26q-16-6-32 2v52q16-8 32-2z" fill={fill} opacity=".75" /></g>;
    case "garden":
      return <g><path d="M50 80V44" stroke={fill} strokeWidth="5" /><path d="M50 50Q24 50 22 24q26 0 28 26zM50 58q20-2 28-24-24 2-28 24z" fill={fill} /><rect x="34" y="72" width="32" height="10" rx="3" fill={fill} opacity=".6" /></g>;
    case "pets":
      return <g fill={fill}><ellipse cx="50" cy="62" rx="16" ry="13" /><circle cx="30" cy="44" r="7" /><circle cx="42" cy="32" r="7" /><circle cx="58" cy="32" r="7" /><circle cx="70" cy="44" r="7" /></g>;
    case "food":
      return <g><rect x="22" y="42" width="56" height="38" rx="4" fill={fill} /><rect x="18" y="32" width="64" height="14" rx="3" fill={fill} opacity=".8" /><path d="M50 32v48" stroke={white} strokeWidth="6" /><path d="M50 32q-14-16-20-6t20 6q14-16 20-6t-20 6" fill="none" stroke={fill} strokeWidth="4" /></g>;
    default:
      return <g><rect x="32" y="38" width="36" height="42" rx="8" fill={fill} /><rect x="42" y="22" width="16" height="18" rx="3" fill={fill} opacity=".7" /><path d="M58 26h12" stroke={fill} strokeWidth="5" strokeLinecap="round" /></g>;
  }
}

/** A product picture: a drawing of the department's kind of thing on the department's colour, varied per product
 * (no photos ship with the catalogue). */
export function Picture({ p, size = 160 }: { p: Pick<Product, "department" | "line" | "brand" | "id">; size?: number }) {
  const hue = HUES[p.department] ?? 210;
  const n = parseInt(p.id.slice(-3), 36);
  const shift = (n % 5) * 9 - 18;
  return (
    <svg className="sw-pic" width={size} height={size} viewBox="0 0 100 100" aria-hidden="true">
      <rect width="100" height="100" rx="8" fill={`hsl(${hue + shift} 40% 96%)`} />
      <circle cx={20 + (n % 60)} cy={18 + (n % 23)} r="30" fill={`hsl(${hue + shift} 50% 90%)`} />
      <Glyph dept={p.department} fill={`hsl(${hue + shift} ${45 + (n % 3) * 10}% ${48 + (n % 4) * 5}%)`} />
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
      {p.subscribe ? <div className="sw-small sw-muted">{ctx.t("Subscribe & Save 5%", "Spar-Abo: 5 % sparen")}</div> : null}
    </article>
  );
}

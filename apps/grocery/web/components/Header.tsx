import Link from "next/link";
import { w } from "@/grocery/lib/words";
import { Logo } from "./Logo";

const TABS = [
  ["/", "Stores"],
  ["/orders", "Orders"],
  ["/lists", "Lists"],
] as const;

/** The top bar of every signed-in page: brand, search of the current store, tabs, cart, the shopper. */
export function Header({ active, name, store, cartCount, q, locale = "en-US" }: { active: string; name: string; store?: { key: string; name: string } | null; cartCount?: number; q?: string; locale?: string }) {
  return (
    <header className="bf-header">
      <Link href="/" className="bf-brand">
        <Logo size={34} />
        <span>Basketful</span>
      </Link>
      {store ? (
        <form action={`/store/${store.key}`} method="get" className="bf-search" role="search">
          <input name="q" type="search" placeholder={`${w(locale, "Search")} ${store.name}`} defaultValue={q ?? ""} aria-label={`Search ${store.name}`} />
          <button type="submit">{w(locale, "Search")}</button>
        </form>
      ) : <div className="bf-search-spacer" />}
      <nav className="bf-tabs" aria-label="Main">
        {TABS.map(([href, label]) => (
          <Link key={href} href={href} className={active === href ? "bf-tab bf-tab-on" : "bf-tab"} aria-current={active === href ? "page" : undefined}>{w(locale, label)}</Link>
        ))}
      </nav>
      {store ? (
        <Link href={`/cart?store=${store.key}`} className="bf-cart-button" data-testid="cart-link">
          <span aria-hidden="true">🛒</span> {w(locale, "Cart")} <span className="bf-cart-count">{cartCount ?? 0}</span>
        </Link>
      ) : null}
      <div className="bf-user">
        <span className="bf-avatar" aria-hidden="true">{name.split(" ").map((w) => w[0]).slice(0, 2).join("")}</span>
        <form action="/api/logout" method="post">
          <button type="submit" className="bf-link-button">{w(locale, "Sign out")}</button>
        </form>
      </div>
    </header>
  );
}

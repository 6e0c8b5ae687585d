import Link from "next/link";
import { Logo } from "./Logo";
import type { Words } from "@/delivery/lib/i18n";


/** The top bar of every signed-in page: brand, search, tabs, the cart, the customer, sign out. */
export function Header({ active, name, cartCount, city, w, q = "" }: { active: string; name: string; cartCount: number; city: string; w: Words; q?: string }) {
  const TABS = [["/", w.home], ["/orders", w.orders], ["/account", w.account]] as const;
  return (
    <header className="dbt-header">
      <Link href="/" className="dbt-brand">
        <Logo size={34} />
        <span>DashBite</span>
      </Link>
      <span className="dbt-city" title={w.deliveringIn}>{city}</span>
      <form action="/" method="get" className="dbt-search" role="search">
        <input name="q" type="search" placeholder={w.search} defaultValue={q} aria-label={w.search} />
      </form>
      <nav className="dbt-tabs" aria-label="Main">
        {TABS.map(([href, label]) => (
          <Link key={href} href={href} className={active === href ? "dbt-tab dbt-tab-on" : "dbt-tab"} aria-current={active === href ? "page" : undefined}>
            {label}
          </Link>
        ))}
      </nav>
      <Link href="/checkout" className="dbt-cart" data-testid="cart-link">
        {w.cart} <span className="dbt-cart-count" data-testid="cart-count">{cartCount}</span>
      </Link>
      <div className="dbt-user">
        <span className="dbt-avatar" aria-hidden="true">{name.split(" ").map((w) => w[0]).slice(0, 2).join("")}</span>
        <span className="dbt-user-name" data-testid="user-name">{name}</span>
        <form action="/api/logout" method="post">
          <button type="submit" className="dbt-link-button">{w.signOut}</button>
        </form>
      </div>
    </header>
  );
}

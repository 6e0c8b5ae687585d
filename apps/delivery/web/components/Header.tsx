import Link from "next/link";
import { Logo } from "./Logo";

const TABS = [
  ["/", "Home"],
  ["/orders", "Orders"],
  ["/account", "Account"],
] as const;

/** The top bar of every signed-in page: brand, search, tabs, the cart, the customer, sign out. */
export function Header({ active, name, cartCount, city, q = "" }: { active: string; name: string; cartCount: number; city: string; q?: string }) {
  return (
    <header className="dbt-header">
      <Link href="/" className="dbt-brand">
        <Logo size={34} />
        <span>DashBite</span>
      </Link>
      <span className="dbt-city" title="Delivering in">{city}</span>
      <form action="/" method="get" className="dbt-search" role="search">
        <input name="q" type="search" placeholder="Search restaurants, cuisines or dishes" defaultValue={q} aria-label="Search" />
      </form>
      <nav className="dbt-tabs" aria-label="Main">
        {TABS.map(([href, label]) => (
          <Link key={href} href={href} className={active === href ? "dbt-tab dbt-tab-on" : "dbt-tab"} aria-current={active === href ? "page" : undefined}>
            {label}
          </Link>
        ))}
      </nav>
      <Link href="/checkout" className="dbt-cart" data-testid="cart-link">
        Cart <span className="dbt-cart-count" data-testid="cart-count">{cartCount}</span>
      </Link>
      <div className="dbt-user">
        <span className="dbt-avatar" aria-hidden="true">{name.split(" ").map((w) => w[0]).slice(0, 2).join("")}</span>
        <form action="/api/logout" method="post">
          <button type="submit" className="dbt-link-button">Sign out</button>
        </form>
      </div>
    </header>
  );
}

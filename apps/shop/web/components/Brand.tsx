import Link from "next/link";
import type { ShopContext } from "@/shop/lib/context";
import type { Department } from "@/shop/lib/shop";

/** Shopwell's mark: an amber shopping bag with a smile, on navy. */
export function Logo({ size = 34 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 40 40" aria-hidden="true">
      <rect width="40" height="40" rx="9" fill="#1f4670" />
      <path d="M10 15h20l-2.2 15.5a2 2 0 0 1-2 1.5H14.2a2 2 0 0 1-2-1.5z" fill="#f2a33a" />
      <path d="M15 15v-2.5a5 5 0 0 1 10 0V15" fill="none" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" />
      <path d="M15.5 22.5q4.5 4 9 0" fill="none" stroke="#16324f" strokeWidth="2.4" strokeLinecap="round" />
    </svg>
  );
}

/** The top bar of every signed-in page: logo, search box with department, account links, cart. */
export function Header({ ctx, name, cart, depts, q = "", dept = "" }: { ctx: ShopContext; name: string; cart: number; depts: Department[]; q?: string; dept?: string }) {
  const t = ctx.t;
  return (
    <header className="sw-header">
      <div className="sw-header-in">
        <Link href="/" className="sw-brand" aria-label="Shopwell home">
          <Logo />
          <span>Shopwell</span>
        </Link>
        <form action="/s" method="get" className="sw-search" role="search">
          <select name="dept" defaultValue={dept} aria-label={t("Department", "Kategorie")}>
            <option value="">{t("All", "Alle")}</option>
            {depts.map((d) => (
              <option key={d.key} value={d.key}>{d.name}</option>
            ))}
          </select>
          <input name="q" defaultValue={q} placeholder={t("Search Shopwell", "Shopwell durchsuchen")} aria-label={t("Search", "Suche")} data-testid="search-input" />
          <button type="submit" aria-label={t("Search", "Suchen")}>
            <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true"><circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2.4" /><path d="M15.5 15.5 21 21" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" /></svg>
          </button>
        </form>
        <nav className="sw-account" aria-label={t("Account", "Konto")}>
          <Link href="/account" className="sw-two"><small>{t(`Hello, ${name.split(" ")[0]}`, `Hallo, ${name.split(" ")[0]}`)}</small><b>{t("Account", "Mein Konto")}</b></Link>
          <Link href="/orders" className="sw-two" data-testid="nav-orders"><small>{t("Returns", "Rücksendungen")}</small><b>{t("& Orders", "& Bestellungen")}</b></Link>
          <Link href="/cart" className="sw-cart" data-testid="nav-cart" aria-label={t("Cart", "Warenkorb")}>
            <svg width="30" height="26" viewBox="0 0 30 26" aria-hidden="true"><path d="M1 2h4l3.5 15h15L27 6H7" fill="none" stroke="#fff" strokeWidth="2.2" strokeLinejoin="round" /><circle cx="11" cy="22" r="2" fill="#fff" /><circle cx="21" cy="22" r="2" fill="#fff" /></svg>
            <span className="sw-cart-n" data-testid="cart-count">{cart}</span>
            <b>{t("Cart", "Warenkorb")}</b>
          </Link>
        </nav>
      </div>
      <nav className="sw-depts" aria-label={t("Departments", "Kategorien")}>
        <div className="sw-depts-in">
          {depts.map((d) => (
            <Link key={d.key} href={`/s?dept=${d.key}`}>{d.name}</Link>
          ))}
          <Link href="/wishlist">{t("Wish list", "Wunschzettel")}</Link>
          <Link href="/subscriptions">{t("Subscribe & Save", "Spar-Abo")}</Link>
        </div>
      </nav>
    </header>
  );
}

export function Footer({ ctx }: { ctx: ShopContext }) {
  return (
    <footer className="sw-footer">
      <div>
        <b>Shopwell</b> · {ctx.t("Free shipping from", "Kostenloser Versand ab")} {ctx.money(3500)} · {ctx.t("Free returns within 30 days of delivery", "Kostenlose Rücksendung innerhalb von 30 Tagen")}
      </div>
      <form action="/api/logout" method="post">
        <button type="submit" className="sw-link">{ctx.t("Sign out", "Abmelden")}</button>
      </form>
    </footer>
  );
}

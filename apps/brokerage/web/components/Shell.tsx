import Link from "next/link";
import type { ReactNode } from "react";
import { Alert } from "@persona/ui";
import type { BrokerContext } from "@/brokerage/lib/context";

/** The Tidewell mark: a wave over a rising line. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="#0f3d3e" />
      <path d="M5 21c3-3 5-3 8 0s5 3 8 0 4-3 6-1" stroke="#2fbf71" strokeWidth="2.6" fill="none" strokeLinecap="round" />
      <path d="M7 15l6-5 5 3 7-6" stroke="#e8f5ee" strokeWidth="2.2" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** Every signed-in page: top bar (logo, search, sections, sign out) and the page's content. */
export function Shell({ ctx, active, children }: { ctx: BrokerContext; active: string; children: ReactNode }) {
  const t = ctx.t;
  const links: [string, string, string][] = [
    ["portfolio", "/", t("Portfolio", "Depot")],
    ["orders", "/orders", t("Orders", "Orders")],
    ["dividends", "/dividends", t("Dividends", "Dividenden")],
    ["transfers", "/transfers", t("Transfers", "Überweisungen")],
    ["watchlist", "/watchlist", t("Watchlist", "Beobachtungsliste")],
    ["account", "/account", t("Account", "Konto")],
  ];
  return (
    <div className="tw-app">
      <header className="tw-top">
        <Link href="/" className="tw-brand">
          <Logo />
          <span>Tidewell</span>
        </Link>
        <form action="/search" method="get" className="tw-search" role="search">
          <input name="q" placeholder={t("Search symbols or companies", "Symbol oder Name suchen")} aria-label={t("Search", "Suchen")} />
        </form>
        <nav className="tw-nav">
          {links.map(([key, href, label]) => (
            <Link key={key} href={href} className={key === active ? "tw-nav-on" : undefined}>
              {label}
            </Link>
          ))}
        </nav>
        <form action="/api/logout" method="post">
          <button className="tw-link" type="submit">
            {t("Sign out", "Abmelden")}
          </button>
        </form>
      </header>
      <main className="tw-main">{children}</main>
      <footer className="tw-foot">
        {t(
          "Tidewell Securities. Prices are end-of-day closes; market orders fill at the latest close. Investing involves risk.",
          "Tidewell Securities. Kurse sind Schlusskurse; Market-Orders werden zum letzten Schlusskurs ausgeführt. Wertpapiere bergen Risiken.",
        )}
      </footer>
    </div>
  );
}

/** A red/green number. */
export function Delta({ cents, ctx, pct }: { cents: number; ctx: BrokerContext; pct?: number | null }) {
  const cls = cents > 0 ? "tw-up" : cents < 0 ? "tw-down" : "tw-flat";
  return (
    <span className={cls}>
      {ctx.signed(cents)}
      {pct != null && Number.isFinite(pct) ? ` (${pct >= 0 ? "+" : ""}${pct.toLocaleString(ctx.locale, { maximumFractionDigits: 2, minimumFractionDigits: 2 })} %)` : ""}
    </span>
  );
}

export function Notice({ error, done }: { error?: string; done?: string }) {
  return (
    <>
      {error ? (
        <Alert tone="error" className="tw-alert" data-testid="error">
          {error}
        </Alert>
      ) : null}
      {done ? (
        <Alert tone="success" className="tw-ok" data-testid="done">
          {done}
        </Alert>
      ) : null}
    </>
  );
}

import Link from "next/link";
import type { ReactNode } from "react";
import { Alert } from "@persona/ui";
import type { User } from "@/markets/lib/auth";
import type { HunchContext } from "@/markets/lib/context";
import { balance } from "@/markets/lib/markets";

/** The Hunchline mark: a rising line through a circle. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <circle cx="16" cy="16" r="15" fill="#12b886" />
      <polyline points="6,21 12,15 17,18 26,9" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** Header (brand, search, navigation, balance), the page, a footer with the rules of the house. */
export function Shell({ user, ctx, active, children, q = "" }: { user: User; ctx: HunchContext; active: string; children: ReactNode; q?: string }) {
  const t = ctx.t;
  const nav: [string, string, string][] = [
    ["markets", "/", t("Markets", "Märkte")],
    ["portfolio", "/portfolio", t("Portfolio", "Depot")],
    ["watchlist", "/watchlist", t("Watchlist", "Merkliste")],
    ["resolved", "/resolved", t("Resolved", "Entschieden")],
    ["activity", "/activity", t("Activity", "Aktivität")],
  ];
  return (
    <>
      <header className="hl-header">
        <div className="hl-header-in">
          <Link href="/" className="hl-brand">
            <Logo /> Hunchline
          </Link>
          <form action="/" method="get" className="hl-search" role="search">
            <input name="q" defaultValue={q} placeholder={t("Search markets", "Märkte durchsuchen")} aria-label={t("Search markets", "Märkte durchsuchen")} maxLength={200} />
          </form>
          <nav className="hl-nav">
            {nav.map(([key, href, label]) => (
              <Link key={key} href={href} className={key === active ? "on" : ""}>
                {label}
              </Link>
            ))}
          </nav>
          <Link href="/portfolio" className="hl-cash" data-testid="balance" data-cents={balance(user.id)}>
            <span className="hl-muted">{t("Cash", "Guthaben")}</span> {ctx.money(balance(user.id))}
          </Link>
          <form action="/api/logout" method="post">
            <button className="hl-link" type="submit" title={user.full_name}>
              {t("Sign out", "Abmelden")}
            </button>
          </form>
        </div>
      </header>
      <main className="hl-main">{children}</main>
      <footer className="hl-footer">
        {t(
          "Hunchline lists yes/no event contracts. A share pays 1.00 if its side wins and nothing if it loses. No trading fees. Prices are the last traded price of the day.",
          "Hunchline handelt Ja/Nein-Ereigniskontrakte. Ein Anteil zahlt 1,00, wenn seine Seite gewinnt, sonst nichts. Keine Handelsgebühren. Kurse sind der letzte Tageskurs.",
        )}
      </footer>
    </>
  );
}

/** A notice from ?error= or a success query. */
export function Notice({ error, ok }: { error?: string; ok?: string }) {
  return (
    <>
      {error ? (
        <Alert tone="error" className="hl-alert" data-testid="error">
          {error}
        </Alert>
      ) : null}
      {ok ? (
        <Alert tone="success" className="hl-note" data-testid="ok">
          {ok}
        </Alert>
      ) : null}
    </>
  );
}

/** "62¢" style price of a share. */
export const cents = (c: number) => `${c}¢`;

import Link from "next/link";

/** TableTime's mark: a crimson plate with a clock hand and fork. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 40 40" aria-hidden="true">
      <circle cx="20" cy="20" r="19" fill="#b3263a" />
      <circle cx="20" cy="20" r="12.5" fill="none" stroke="#fff" strokeWidth="2.4" />
      <path d="M20 12.5 V20 L25.5 23" stroke="#f2b544" strokeWidth="2.6" strokeLinecap="round" fill="none" />
      <path d="M9 8 v6 M11 8 v6 M13 8 v6 M9 14 q2 2 4 0 M11 15 v6" stroke="#fff" strokeWidth="1.3" strokeLinecap="round" fill="none" opacity="0.9" />
    </svg>
  );
}

const NAV = [
  { href: "/", label: "Discover" },
  { href: "/reservations", label: "Reservations" },
  { href: "/favorites", label: "Saved" },
];

/** The top bar: logo, sections (the current one underlined), the diner's name and points, sign out. */
export function Header({ name, points, current }: { name: string; points: number; current: string }) {
  return (
    <header className="tt-header">
      <div className="tt-header-in">
        <Link href="/" className="tt-brand" aria-label="TableTime home">
          <Logo size={34} />
          <span>
            Table<b>Time</b>
          </span>
        </Link>
        <nav className="tt-nav" aria-label="Main">
          {NAV.map((n) => (
            <Link key={n.href} href={n.href} className={current === n.href ? "tt-current" : ""} aria-current={current === n.href ? "page" : undefined}>
              {n.label}
            </Link>
          ))}
        </nav>
        <div className="tt-user">
          <span className="tt-points" title="Dining points">
            ★ {points.toLocaleString("en-US")} pts
          </span>
          <span data-testid="user-name">{name}</span>
          <form action="/api/logout" method="post">
            <button type="submit" className="tt-link-button">
              Sign out
            </button>
          </form>
        </div>
      </div>
    </header>
  );
}

export function Stars({ x10, size = 14 }: { x10: number; size?: number }) {
  const full = Math.round(x10 / 5) / 2;
  return (
    <span className="tt-stars" aria-label={`${(x10 / 10).toFixed(1)} out of 5`} style={{ fontSize: size }}>
      {[1, 2, 3, 4, 5].map((k) => (
        <span key={k} className={k <= full ? "on" : k - 0.5 === full ? "half" : "off"}>
          ★
        </span>
      ))}
    </span>
  );
}

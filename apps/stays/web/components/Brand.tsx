import Link from "next/link";

/** Bramblestay's mark: a bramble leaf folded into a roof over a door. */
export function Logo({ size = 32, onDark = false }: { size?: number; onDark?: boolean }) {
  return (
    <svg width={size} height={size} viewBox="0 0 40 40" aria-hidden="true">
      <rect width="40" height="40" rx="11" fill={onDark ? "#2f6b7d" : "#1d4e5f"} stroke={onDark ? "#5f93a2" : "none"} />
      <path d="M8 21 L20 10 L32 21" fill="none" stroke="#e8835a" strokeWidth="3.4" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M13 20 V30 H27 V20" fill="none" stroke="#fff" strokeWidth="2.6" strokeLinejoin="round" />
      <path d="M18 30 V24.5 a2 2 0 0 1 4 0 V30" fill="#fff" />
      <circle cx="29" cy="11" r="2.6" fill="#9ccf8f" />
    </svg>
  );
}

/** The top bar of every signed-in page. */
export function Header({ name, active }: { name: string; active?: "search" | "trips" | "messages" }) {
  return (
    <header className="bs-header">
      <div className="bs-header-in">
        <Link href="/" className="bs-brand" aria-label="Bramblestay home">
          <Logo onDark />
          <span>Bramblestay</span>
        </Link>
        <nav className="bs-nav" aria-label="Main">
          <Link href="/" className={active === "search" ? "is-active" : ""}>Stays</Link>
          <Link href="/trips" className={active === "trips" ? "is-active" : ""} data-testid="nav-trips">Trips</Link>
          <Link href="/messages" className={active === "messages" ? "is-active" : ""}>Messages</Link>
        </nav>
        <div className="bs-user">
          <span className="bs-avatar" aria-hidden="true">{name.slice(0, 1)}</span>
          <span data-testid="user-name">{name}</span>
          <form action="/api/logout" method="post">
            <button type="submit" className="bs-link">Sign out</button>
          </form>
        </div>
      </div>
    </header>
  );
}

/** Guest rating out of 10 with its word, as a badge. */
export function RatingBadge({ x10, count }: { x10: number; count?: number }) {
  const score = x10 / 10;
  const word = score >= 9 ? "Exceptional" : score >= 8.5 ? "Excellent" : score >= 8 ? "Very good" : score >= 7 ? "Good" : "Pleasant";
  return (
    <span className="bs-rating">
      <span className="bs-rating-score" data-testid="rating">{score.toFixed(1)}</span>
      <span className="bs-rating-word">{word}</span>
      {count != null ? <span className="bs-muted">· {count.toLocaleString("en-US")} reviews</span> : null}
    </span>
  );
}

export function Stars({ n }: { n: number | null }) {
  if (!n) return null;
  return (
    <span className="bs-stars" aria-label={`${n}-star hotel`}>
      {"★".repeat(n)}
    </span>
  );
}

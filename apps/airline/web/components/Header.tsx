import Link from "next/link";
import { Logo } from "./Logo";

/** The site header: logo, main navigation, the member's name, tier and sign-out. */
export function Header({ name, tier, number, active }: { name: string; tier: string; number: string; active?: string }) {
  const nav = [
    ["book", "/book", "Book"],
    ["trips", "/", "My Trips"],
    ["loyalty", "/loyalty", "MileagePass"],
  ];
  return (
    <header className="ma-header">
      <div className="ma-header-in">
        <Link href="/" className="ma-home" aria-label="Meridian Air home">
          <Logo light />
        </Link>
        <nav className="ma-nav">
          {nav.map(([key, href, label]) => (
            <Link key={key} href={href} className={active === key ? "active" : ""}>
              {label}
            </Link>
          ))}
        </nav>
        <div className="ma-member">
          <span data-testid="member-name">{name}</span>
          <span className={`ma-tier ma-tier-${tier.toLowerCase()}`}>{tier}</span>
          <span className="ma-member-no">{number}</span>
          <form action="/api/logout" method="post">
            <button type="submit" className="ma-link">Sign out</button>
          </form>
        </div>
      </div>
    </header>
  );
}

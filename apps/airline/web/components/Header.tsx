import Link from "next/link";
import { Logo } from "./Logo";
import { NavLinks } from "./NavLinks";

/** The site header: logo, main navigation, the member's name, tier and sign-out. */
export function Header({ name, tier, number }: { name: string; tier: string; number: string }) {
  return (
    <header className="ma-header">
      <div className="ma-header-in">
        <Link href="/" className="ma-home" aria-label="Meridian Air home">
          <Logo light />
        </Link>
        <NavLinks />
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

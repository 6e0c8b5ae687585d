import Link from "next/link";
import { Logo } from "./Logo";

const TABS = [
  ["/", "Ride"],
  ["/scheduled", "Scheduled"],
  ["/activity", "Activity"],
  ["/places", "Saved places"],
] as const;

/** The top bar of every signed-in page: brand, tabs, the rider, sign out. */
export function Header({ active, name }: { active: string; name: string }) {
  return (
    <header className="zr-header">
      <Link href="/" className="zr-brand">
        <Logo size={30} />
        <span>ZipRide</span>
      </Link>
      <nav className="zr-tabs" aria-label="Main">
        {TABS.map(([href, label]) => (
          <Link key={href} href={href} className={active === href ? "zr-tab zr-tab-on" : "zr-tab"} aria-current={active === href ? "page" : undefined}>
            {label}
          </Link>
        ))}
      </nav>
      <div className="zr-user">
        <span className="zr-avatar" aria-hidden="true">{name.split(" ").map((w) => w[0]).slice(0, 2).join("")}</span>
        <span className="zr-user-name">{name}</span>
        <form action="/api/logout" method="post">
          <button type="submit" className="zr-link-button">Sign out</button>
        </form>
      </div>
    </header>
  );
}

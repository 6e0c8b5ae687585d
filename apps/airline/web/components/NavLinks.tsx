"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const NAV: [string, string, (p: string) => boolean][] = [
  ["/book", "Book", (p) => p.startsWith("/book")],
  ["/", "My Trips", (p) => p === "/" || p.startsWith("/trips")],
  ["/loyalty", "MileagePass", (p) => p.startsWith("/loyalty")],
];

/** The main navigation, the current section underlined. */
export function NavLinks() {
  const path = usePathname() ?? "/";
  return (
    <nav className="ma-nav">
      {NAV.map(([href, label, on]) => (
        <Link key={href} href={href} className={on(path) ? "active" : ""} aria-current={on(path) ? "page" : undefined}>
          {label}
        </Link>
      ))}
    </nav>
  );
}

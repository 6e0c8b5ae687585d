"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export interface NavItem {
  href: string;
  label: string;
  /** Other path prefixes that light this item up (e.g. `/accounts` for the home item). */
  match?: string[];
}

function isActive(pathname: string, item: NavItem): boolean {
  const prefixes = [item.href, ...(item.match ?? [])];
  return prefixes.some((p) => (p === "/" ? pathname === "/" : pathname === p || pathname.startsWith(p + "/")));
}

/** The primary navigation bar; highlights the item of the current path. */
export function Nav({ items, label = "Main" }: { items: NavItem[]; label?: string }) {
  const pathname = usePathname() ?? "/";
  return (
    <nav className="pui-nav" aria-label={label}>
      <ul>
        {items.map((item) => {
          const active = isActive(pathname, item);
          return (
            <li key={item.href}>
              <Link href={item.href} className={active ? "pui-nav-link is-active" : "pui-nav-link"} aria-current={active ? "page" : undefined}>
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

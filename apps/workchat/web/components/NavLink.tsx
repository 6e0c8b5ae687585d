"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";

/** A sidebar link that knows whether it is the page on screen. */
export function NavLink({ href, className = "", children, testId, unread }: { href: string; className?: string; children: ReactNode; testId?: string; unread?: boolean }) {
  const path = usePathname();
  const active = path === href || (href !== "/" && path.startsWith(`${href}/`));
  return (
    <Link
      href={href}
      className={`${className}${active ? " is-active" : ""}${unread && !active ? " is-unread" : ""}`}
      aria-current={active ? "page" : undefined}
      data-testid={testId}
      data-unread={unread ? "true" : "false"}
      prefetch={false}
    >
      {children}
    </Link>
  );
}

import Link from "next/link";
import type { ReactNode } from "react";
import { Logo } from "./Logo";

/** The page frame: the left rail (team, views), the top bar with search, then the page. */
export function Shell({ team, workspace, user, active, children }: { team: string; workspace: string; user: string; active: string; children: ReactNode }) {
  const link = (href: string, label: string, id: string) => (
    <Link href={href} className={active === id ? "cn-nav-on" : ""} aria-current={active === id ? "page" : undefined}>
      {label}
    </Link>
  );
  return (
    <div className="cn-app">
      <aside className="cn-rail">
        <Link href="/board" className="cn-brand">
          <Logo /> <span>Cairn</span>
        </Link>
        <div className="cn-team">
          <b>{team || "My work"}</b>
          <small>{workspace}</small>
        </div>
        <nav className="cn-nav" aria-label="Views">
          {link("/board", "Sprint board", "board")}
          {link("/backlog", "Backlog & sprints", "backlog")}
          {link("/search", "All tickets", "search")}
          {link("/new", "New ticket", "new")}
        </nav>
        <form action="/api/logout" method="post" className="cn-signout">
          <span>{user}</span>
          <button type="submit">Sign out</button>
        </form>
      </aside>
      <main className="cn-main">
        <form action="/search" className="cn-topsearch" role="search">
          <input name="q" placeholder="Search tickets by key or words" aria-label="Search tickets" />
        </form>
        {children}
      </main>
    </div>
  );
}

/** An error or notice line from `?error=` / `?ok=`. */
export function Notice({ error, ok }: { error?: string; ok?: string }) {
  if (error) return <p className="cn-alert" role="alert">{error}</p>;
  if (ok) return <p className="cn-ok" role="status">{ok}</p>;
  return null;
}

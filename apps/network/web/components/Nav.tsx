import Link from "next/link";
import { Avatar, Logo } from "./Logo";

/** The top bar: brand, search (people; its results link to the jobs), the main sections and the persona's menu. */
export function Nav({ name, active, invitations, unread }: { name: string; active: string; invitations: number; unread: number }) {
  const item = (href: string, key: string, label: string, badge = 0) => (
    <Link href={href} className={`gl-nav-item${active === key ? " gl-active" : ""}`} data-testid={`nav-${key}`}>
      <span>{label}</span>
      {badge ? <span className="gl-badge">{badge}</span> : null}
    </Link>
  );
  return (
    <header className="gl-top">
      <div className="gl-top-inner">
        <Link href="/" className="gl-brand" aria-label="Guildline home">
          <Logo size={30} />
          <span>Guildline</span>
        </Link>
        <form action="/search/people" method="get" className="gl-search" role="search">
          <input name="keywords" placeholder="Search" aria-label="Search people" maxLength={100} />
        </form>
        <nav className="gl-nav">
          {item("/", "home", "Home")}
          {item("/network", "network", "My Network", invitations)}
          {item("/jobs", "jobs", "Jobs")}
          {item("/messaging", "messaging", "Messaging", unread)}
          <Link href="/in/me" className={`gl-nav-item${active === "me" ? " gl-active" : ""}`} data-testid="nav-me">
            <Avatar name={name} size={22} />
            <span>Me</span>
          </Link>
          <form action="/api/logout" method="post">
            <button type="submit" className="gl-link">Sign out</button>
          </form>
        </nav>
      </div>
    </header>
  );
}

/** An error or notice from the query string. */
export function Flash({ error, notice }: { error?: string; notice?: string }) {
  return (
    <>
      {error ? <p className="gl-alert" role="alert" data-testid="error">{error}</p> : null}
      {notice ? <p className="gl-note" data-testid="notice">{notice}</p> : null}
    </>
  );
}

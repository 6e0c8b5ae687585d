import Link from "next/link";
import { idempotencyToken } from "@persona/platform/once";
import type { ReactNode } from "react";
import { LogoMark } from "./Logo";
import { MiniMonth } from "./MiniMonth";
import type { User } from "@/calendar/lib/auth";
import { calContext } from "@/calendar/lib/context";
import { calendars, pendingInvitations } from "@/calendar/lib/events";

export type View = "day" | "week" | "month" | "agenda";

const VIEWS: { id: View; label: string }[] = [
  { id: "day", label: "Day" },
  { id: "week", label: "Week" },
  { id: "month", label: "Month" },
  { id: "agenda", label: "Schedule" },
];

function initials(name: string) {
  return name.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0]!.toUpperCase()).join("");
}

/** Daybook's frame: top bar (Today, arrows, range title, view switch), left rail (Create, mini month, calendars). */
export function Shell({
  user,
  view,
  date,
  title,
  prev,
  next,
  notice,
  error,
  children,
}: {
  user: User;
  view: View | null;
  date: string;
  title: string;
  prev?: string;
  next?: string;
  notice?: string;
  error?: string;
  children: ReactNode;
}) {
  const ctx = calContext();
  const cals = calendars();
  const pending = pendingInvitations(ctx).length;
  const here = view ?? "week";
  return (
    <div className="dbk">
      <header className="dbk-top">
        <Link href="/week" className="dbk-brand" aria-label="Daybook home">
          <LogoMark size={34} day={String(Number(ctx.today.slice(8, 10)))} />
          <span>Daybook</span>
        </Link>
        {view ? (
          <nav className="dbk-nav" aria-label="Navigate">
            <Link href={`/${view}?date=${ctx.today}`} className="dbk-today" data-testid="today">
              Today
            </Link>
            {prev ? (
              <Link href={prev} className="dbk-arrow" aria-label="Previous" data-testid="prev" rel="prev">
                ‹
              </Link>
            ) : null}
            {next ? (
              <Link href={next} className="dbk-arrow" aria-label="Next" data-testid="next" rel="next">
                ›
              </Link>
            ) : null}
            <h1 className="dbk-range" data-testid="range-title">
              {title}
            </h1>
          </nav>
        ) : (
          <h1 className="dbk-range">{title}</h1>
        )}
        <form action="/search" method="get" className="dbk-search" role="search">
          <input name="q" type="search" placeholder="Search events" aria-label="Search events" />
        </form>
        {view ? (
          <div className="dbk-views" role="tablist" aria-label="View">
            {VIEWS.map((v) => (
              <Link key={v.id} href={`/${v.id}?date=${date}`} className={v.id === view ? "on" : ""} role="tab" aria-selected={v.id === view} data-testid={`view-${v.id}`}>
                {v.label}
              </Link>
            ))}
          </div>
        ) : null}
        <div className="dbk-user">
          <form action="/api/logout" method="post">
            <button type="submit" className="dbk-linkbtn">
              Sign out
            </button>
          </form>
          <span className="dbk-avatar" title={`${user.full_name} (${user.email})`}>
            {initials(user.full_name)}
          </span>
        </div>
      </header>
      <div className="dbk-body">
        <aside className="dbk-rail">
          <Link href={`/events/new?date=${date}`} className="dbk-create" data-testid="create">
            <span aria-hidden="true">＋</span> Create
          </Link>
          <MiniMonth date={date} view={here} today={ctx.today} weekStart={ctx.weekStart} />
          <Link href="/invitations" className="dbk-invites" data-testid="invitations-link">
            Invitations {pending ? <span className="dbk-badge">{pending}</span> : null}
          </Link>
          <section className="dbk-cals">
            <h2>My calendars</h2>
            {cals.map((c) => (
              <form key={c.id} action={`/api/calendars/${c.id}`} method="post" className="dbk-cal">
                <input type="hidden" name="back" value={`/${here}?date=${date}`} />
                <input type="hidden" name="_idem" value={idempotencyToken()} />
                <button type="submit" aria-pressed={!c.hidden} data-testid={`calendar-${c.id}`} title={c.hidden ? "Show" : "Hide"}>
                  <span className="dbk-check" style={{ background: c.hidden ? "transparent" : c.color, borderColor: c.color }}>
                    {c.hidden ? "" : "✓"}
                  </span>
                  {c.name}
                </button>
              </form>
            ))}
          </section>
          <p className="dbk-tz">Times in {ctx.tz.replace(/_/g, " ")}</p>
          <a className="dbk-export" href="/calendar.ics" data-testid="export-all">
            Export calendar (.ics)
          </a>
          <Link className="dbk-export" href="/import">
            Import an .ics file
          </Link>
        </aside>
        <main className="dbk-main">
          {notice ? (
            <div className="dbk-notice" role="status" data-testid="notice">
              {notice}
            </div>
          ) : null}
          {error ? (
            <div className="dbk-error" role="alert" data-testid="error">
              {error}
            </div>
          ) : null}
          {children}
        </main>
      </div>
    </div>
  );
}

import Link from "next/link";
import { activeStatus } from "@/workchat/lib/actions";
import type { User } from "@/workchat/lib/auth";
import { badgeCount, type Channel } from "@/workchat/lib/chat";
import type { ChatContext, Formatters } from "@/workchat/lib/context";
import { glyph } from "@/workchat/lib/emoji";
import { Avatar } from "./Avatar";
import { NavLink } from "./NavLink";

/** The workspace sidebar: name, Threads / Mentions & reactions / Saved, channels, direct messages, the persona's status. */
export function Sidebar({ user, channels, scheduled, ctx, f }: { user: User; channels: Channel[]; scheduled: number; ctx: ChatContext; f: Formatters }) {
  const rooms = channels.filter((c) => c.kind === "channel");
  const dms = channels.filter((c) => c.kind === "dm");
  const status = activeStatus(user, ctx.now);
  const mentionTotal = channels.reduce((n, c) => n + (c.kind === "dm" ? c.unread : c.mentions), 0);
  return (
    <nav className="hd-sidebar" aria-label="Workspace">
      <div className="hd-ws">
        <span className="hd-ws-name" data-testid="workspace-name">
          {ctx.workspace}
        </span>
        <span className="hd-ws-caret" aria-hidden="true">
          ▾
        </span>
      </div>
      <div className="hd-side-scroll">
        <div className="hd-side-group">
          <NavLink href="/threads" className="hd-side-item" testId="nav-threads">
            <span className="hd-side-icon">💬</span> Threads
          </NavLink>
          <NavLink href="/activity" className="hd-side-item" testId="nav-activity">
            <span className="hd-side-icon">@</span> Mentions &amp; reactions
            {mentionTotal ? <span className="hd-badge">{mentionTotal}</span> : null}
          </NavLink>
          <NavLink href="/saved" className="hd-side-item" testId="nav-saved">
            <span className="hd-side-icon">🔖</span> Saved
          </NavLink>
          <NavLink href="/scheduled" className="hd-side-item" testId="nav-scheduled">
            <span className="hd-side-icon">🕘</span> Scheduled
            {scheduled ? <span className="hd-count-pill">{scheduled}</span> : null}
          </NavLink>
          <NavLink href="/search" className="hd-side-item" testId="nav-search">
            <span className="hd-side-icon">⌕</span> Search
          </NavLink>
        </div>
        <div className="hd-side-group" data-testid="channel-list">
          <div className="hd-side-title">▾ Channels</div>
          {rooms.map((c) => (
            <NavLink key={c.id} href={`/c/${c.name}`} className={`hd-side-item${c.muted ? " is-muted" : ""}`} testId={`channel-${c.name}`} unread={c.unread > 0 && !c.muted}>
              <span className="hd-side-icon">#</span>
              <span className="hd-side-label">{c.name}</span>
              {c.muted ? <span className="hd-side-muted" title="Muted" aria-label="Muted">🔕</span> : null}
              {badgeCount(c) ? (
                <span className="hd-badge" data-testid="badge">
                  {badgeCount(c)}
                </span>
              ) : null}
            </NavLink>
          ))}
        </div>
        <div className="hd-side-group" data-testid="dm-list">
          <div className="hd-side-title">▾ Direct messages</div>
          {dms.map((c) => (
            <NavLink key={c.id} href={`/c/${c.name}`} className={`hd-side-item${c.muted ? " is-muted" : ""}`} testId={`channel-${c.name}`} unread={c.unread > 0 && !c.muted}>
              <span className="hd-side-avatar">
                <Avatar name={c.dm_name ?? c.name} size={18} />
                <i className="hd-presence" />
              </span>
              <span className="hd-side-label">{c.dm_name}</span>
              {c.unread ? (
                <span className="hd-badge" data-testid="badge">
                  {c.unread}
                </span>
              ) : null}
            </NavLink>
          ))}
        </div>
      </div>
      <Link href="/status" className="hd-me" data-testid="my-status">
        <span className="hd-side-avatar">
          <Avatar name={user.name} size={28} />
          <i className="hd-presence" />
        </span>
        <span className="hd-me-text">
          <b>{user.name}</b>
          <span className="hd-me-status" data-testid="status-line">
            {status ? (
              <>
                {status.emoji ? <span>{glyph(status.emoji)} </span> : null}
                {status.text}
                {status.until ? <span className="hd-me-until"> · until {f.when(status.until)}</span> : null}
              </>
            ) : (
              "Set a status"
            )}
          </span>
        </span>
      </Link>
    </nav>
  );
}

import type { ReactNode } from "react";
import { Sidebar } from "@/workchat/components/Sidebar";
import { requireUser } from "@/workchat/lib/auth";
import { listChannels, scheduledMessages } from "@/workchat/lib/chat";
import { chatContext, formatters } from "@/workchat/lib/context";

/** Signed-in pages: the search bar on top, the workspace sidebar, the page. */
export default async function ChatLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const ctx = chatContext();
  const channels = listChannels(user.person_id, ctx.now);
  return (
    <div className="hd-app">
      <header className="hd-top">
        <div className="hd-top-brand">
          <img src="/favicon.svg" alt="" width={22} height={22} /> Huddle
        </div>
        <form action="/search" method="get" className="hd-top-search" role="search">
          <input name="q" type="search" placeholder={`Search ${ctx.workspace}`} aria-label="Search messages" data-testid="top-search" />
        </form>
        <form action="/api/logout" method="post" className="hd-top-out">
          <button type="submit">Sign out</button>
        </form>
      </header>
      <div className="hd-frame">
        <Sidebar user={user} channels={channels} scheduled={scheduledMessages(user.person_id, ctx.now).length} ctx={ctx} f={formatters(ctx)} />
        <main className="hd-main">{children}</main>
      </div>
    </div>
  );
}

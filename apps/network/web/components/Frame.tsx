import type { ReactNode } from "react";
import { requireUser } from "@/network/lib/auth";
import { networkContext } from "@/network/lib/context";
import { listThreads, pendingInvitations } from "@/network/lib/network";
import { Nav } from "./Nav";

/** A signed-in page: the top bar over the page's columns. */
export async function Frame({ active, children }: { active: string; children: ReactNode }) {
  const user = await requireUser();
  const { now } = networkContext();
  const unread = listThreads(now).reduce((n, t) => n + (t.unread ? 1 : 0), 0);
  return (
    <>
      <Nav name={user.full_name} active={active} invitations={pendingInvitations("incoming").length} unread={unread} />
      <main className="gl-main">{children}</main>
    </>
  );
}

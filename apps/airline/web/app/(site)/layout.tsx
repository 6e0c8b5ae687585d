import type { ReactNode } from "react";
import { Header } from "@/airline/components/Header";
import { requireUser } from "@/airline/lib/auth";
import { db } from "@/airline/lib/db";

/** Signed-in pages: header, content, footer. */
export default async function SiteLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const lo = db().prepare("SELECT tier, number FROM loyalty WHERE user_id = ?").get(user.id) as { tier: string; number: string } | undefined;
  return (
    <div className="ma-app">
      <Header name={user.full_name} tier={lo?.tier ?? "Member"} number={lo?.number ?? user.username} />
      <main className="ma-main">{children}</main>
      <footer className="ma-footer">
        <span>© Meridian Air</span>
        <span>Conditions of carriage</span>
        <span>Baggage</span>
        <span>Customer service 1-800-555-0147</span>
      </footer>
    </div>
  );
}

import type { ReactNode } from "react";
import { requireUser } from "@/messaging/lib/auth";

/** Signed-in pages: the two-pane messenger frame (each page renders the conversation list and its pane). */
export default async function ChatLayout({ children }: { children: ReactNode }) {
  await requireUser();
  return <div className="pl-app">{children}</div>;
}

import type { ReactNode } from "react";
import { requireUser } from "@/delivery/lib/auth";

/** Signed-in pages (each renders the header with its own active tab). */
export default async function AppLayout({ children }: { children: ReactNode }) {
  await requireUser();
  return <div className="dbt-app">{children}</div>;
}

import type { ReactNode } from "react";
import { requireUser } from "@/rides/lib/auth";

/** Signed-in pages (each renders the header with its own active tab). */
export default async function AppLayout({ children }: { children: ReactNode }) {
  await requireUser();
  return <div className="zr-app">{children}</div>;
}

import type { ReactNode } from "react";
import { requireUser } from "@/grocery/lib/auth";

/** Signed-in pages (each renders the header with its own active tab and store). */
export default async function ShopLayout({ children }: { children: ReactNode }) {
  await requireUser();
  return <div className="bf-app">{children}</div>;
}

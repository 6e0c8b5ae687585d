import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./dashbite.css";
import { delivery } from "@/delivery/lib/app";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: delivery.settings.title, template: `%s · ${delivery.settings.title}` },
  description: "DashBite: your neighbourhood, delivered.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { themeColor: "#d62d20" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="dbt-body">{children}</body>
    </html>
  );
}

import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./basketful.css";
import { grocery } from "@/grocery/lib/app";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: grocery.settings.title, template: `%s · ${grocery.settings.title}` },
  description: "Basketful: groceries from the stores you love, at your door.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { themeColor: "#0a6b3d" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="bf-body">{children}</body>
    </html>
  );
}

import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./dining.css";
import { dining } from "@/dining/lib/app";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: `${dining.settings.title}: restaurant reservations`, template: `%s | ${dining.settings.title}` },
  description: "TableTime: book a table at restaurants near you. Free reservations, instant confirmation.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { themeColor: "#b3263a" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="tt-body">{children}</body>
    </html>
  );
}

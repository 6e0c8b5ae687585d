import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./workchat.css";
import { workchat } from "@/workchat/lib/app";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: workchat.settings.title, template: `%s | ${workchat.settings.title}` },
  description: "Huddle: where your team talks.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { themeColor: "#3b1f4a" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="hd-body">{children}</body>
    </html>
  );
}

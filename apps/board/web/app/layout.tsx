import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./board.css";
import { board } from "@/board/lib/app";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: board.settings.title, template: `%s | ${board.settings.title}` },
  description: "Cairn: plan the sprint, move the work.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { themeColor: "#1f3a5f" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="cn-body">{children}</body>
    </html>
  );
}

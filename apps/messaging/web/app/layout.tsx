import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./parley.css";
import { messaging } from "@/messaging/lib/app";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: messaging.settings.title, template: `%s · ${messaging.settings.title}` },
  description: "Parley: every conversation, one place.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { themeColor: "#6c4cf1" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="pl-body">{children}</body>
    </html>
  );
}

import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "@persona/ui/styles.css";
import "./calendar.css";
import { calendar } from "@/calendar/lib/app";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: calendar.settings.title, template: `%s - ${calendar.settings.title}` },
  description: "Daybook: your days, in order.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { themeColor: "#3f4bb8" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}

import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "@persona/ui/styles.css";
import "./calendar.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Daybook", template: "%s - Daybook" },
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

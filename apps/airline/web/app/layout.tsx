import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./airline.css";
import { airline } from "@/airline/lib/app";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: airline.settings.title, template: `%s · ${airline.settings.title}` },
  description: "Meridian Air: book flights, manage trips, check in and MileagePass.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { themeColor: "#0b2a4a" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="ma-body">{children}</body>
    </html>
  );
}

import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { hunchContext } from "@/markets/lib/context";
import "./markets.css";
import { markets } from "@/markets/lib/app";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: `${markets.settings.title}: trade on what happens next`, template: `%s | ${markets.settings.title}` },
  description: "Hunchline: yes/no markets on weather, sports, the economy, awards and tech. A share pays 1.00 if it is right.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { themeColor: "#1b2a4a" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang={hunchContext().lang}>
      <body className="hl-body">{children}</body>
    </html>
  );
}

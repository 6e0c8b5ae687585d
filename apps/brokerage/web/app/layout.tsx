import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { brokerContext } from "@/brokerage/lib/context";
import "./tidewell.css";
import { brokerage } from "@/brokerage/lib/app";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: `${brokerage.settings.title}: investing that keeps its head`, template: `%s | ${brokerage.settings.title}` },
  description: "Tidewell: commission-free stocks and funds, fractional shares, recurring investments and dividends.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { themeColor: "#0f3d3e" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang={brokerContext().lang}>
      <body className="tw-body">{children}</body>
    </html>
  );
}

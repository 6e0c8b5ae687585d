import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { shopContext } from "@/shop/lib/context";
import "./shop.css";
import { shop } from "@/shop/lib/app";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: `${shop.settings.title}: everything for every day`, template: `%s | ${shop.settings.title}` },
  description: "Shopwell: electronics, home, outdoor, clothing, books and more, with free shipping from 35 and free 30-day returns.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { themeColor: "#16324f" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang={shopContext().lang}>
      <body className="sw-body">{children}</body>
    </html>
  );
}

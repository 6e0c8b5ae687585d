import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "@persona/ui/styles.css";
import "./bank.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Larkspur Bank", template: "%s | Larkspur Bank" },
  description: "Larkspur Bank online banking: banking that grows with you.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { themeColor: "#1f4e5f" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}

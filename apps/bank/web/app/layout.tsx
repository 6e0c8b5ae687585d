import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "@persona/ui/styles.css";
import "./bank.css";
import { bank } from "@/bank/lib/app";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: bank.settings.title, template: `%s | ${bank.settings.title}` },
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

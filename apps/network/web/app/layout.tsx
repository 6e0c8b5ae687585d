import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./guildline.css";
import { network } from "@/network/lib/app";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: network.settings.title, template: `%s | ${network.settings.title}` },
  description: "Guildline: your working life, connected.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { themeColor: "#0f5c4d" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="gl-body">{children}</body>
    </html>
  );
}

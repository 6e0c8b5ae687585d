import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./zipride.css";
import { rides } from "@/rides/lib/app";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: rides.settings.title, template: `%s · ${rides.settings.title}` },
  description: "ZipRide: wherever you're headed, zip there.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { themeColor: "#0b3d2e" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="zr-body">{children}</body>
    </html>
  );
}

import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./stays.css";
import { stays } from "@/stays/lib/app";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: `${stays.settings.title}: hotels and homes`, template: `%s | ${stays.settings.title}` },
  description: "Bramblestay: find your kind of place. Hotels, apartments and homes with free cancellation on most stays.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { themeColor: "#1d4e5f" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="bs-body">{children}</body>
    </html>
  );
}

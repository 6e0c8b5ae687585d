import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./mail.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Mailbox", template: "%s - Mailbox" },
  description: "Mailbox: your mail, in order.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { themeColor: "#c2410c" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}

import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./mail.css";
import { mail } from "@/mail/lib/app";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: mail.settings.title, template: `%s - ${mail.settings.title}` },
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

import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./taxes.css";
import { taxes } from "@/taxes/lib/app";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: `${taxes.settings.title}: file your return step by step`, template: `%s | ${taxes.settings.title}` },
  description: "Ledgerleaf Tax: import your tax forms, check your deductions and file your return.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { themeColor: "#2f6b3a" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="ll-body">{children}</body>
    </html>
  );
}

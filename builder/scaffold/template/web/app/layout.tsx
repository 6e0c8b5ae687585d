import type { Metadata } from "next";
import type { ReactNode } from "react";
import "@persona/ui/styles.css";
import "./app.css";
import { app } from "@/__APP__/lib/app";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: { default: app.settings.title, template: `%s | ${app.settings.title}` } };

/** The app's root layout: its own <html>, fonts and styles (each app is its own origin). */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="__APP__-app">{children}</body>
    </html>
  );
}

import { notFound } from "next/navigation";

/** Any path the app has no page for: its own "not found" page, inside its layout. */
export default function Missing() {
  notFound();
}

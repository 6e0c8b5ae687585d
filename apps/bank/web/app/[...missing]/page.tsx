import { notFound } from "next/navigation";

/** Any path the bank has no page for: the bank's own "not found" page inside its layout. */
export default function Missing() {
  notFound();
}

import { notFound } from "next/navigation";

/** Any path Huddle has no page for: Huddle's own "not found" page inside its layout. */
export default function Missing() {
  notFound();
}

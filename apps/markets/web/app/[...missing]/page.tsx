import { notFound } from "next/navigation";

/** Any path Hunchline has no page for: its own "not found" page. */
export default function Missing() {
  notFound();
}

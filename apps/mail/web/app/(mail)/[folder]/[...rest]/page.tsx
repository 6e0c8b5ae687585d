import { notFound } from "next/navigation";

/** Any deeper path under a folder name (/nope/deeper, /bank/accounts): Mailbox's own "not found" page. */
export default function Missing() {
  notFound();
}

import { setStatus } from "@/workchat/lib/actions";
import { backTo, formPost } from "@/workchat/lib/http";

export const dynamic = "force-dynamic";

/** Set the status: `emoji` (shortcode or empty), `text`, `clear` (never|30m|1h|4h|today|week|date), `date`. */
export const POST = formPost(["emoji", "text", "clear", "date"], (user, v) => {
  setStatus(user, v.emoji, v.text, v.clear, v.date);
  return backTo(v.back || "/status", { notice: "Status updated." });
});

import { clearStatus } from "@/workchat/lib/actions";
import { backTo, formPost } from "@/workchat/lib/http";

export const dynamic = "force-dynamic";

/** Clear the status. */
export const POST = formPost([], (user, v) => {
  clearStatus(user);
  return backTo(v.back || "/status", { notice: "Status cleared." });
});

import { requireUser, type User } from "./auth";
import { hunchContext, type HunchContext } from "./context";

/** What every signed-in page needs: the user (else a redirect to /login) and the context. */
export async function shell(): Promise<{ user: User; ctx: HunchContext }> {
  const user = await requireUser();
  return { user, ctx: hunchContext() };
}

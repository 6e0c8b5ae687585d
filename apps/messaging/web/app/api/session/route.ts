import { signInRoute } from "@persona/platform/session";
import { sessions } from "@/messaging/lib/auth";

export const dynamic = "force-dynamic";

/** Sign-in form post (@persona/platform/session signInRoute: limited attempts, same-origin next): check username + password, create a session row, set pl_session. */
export const POST = signInRoute(sessions);

import { signInRoute } from "@persona/platform/session";
import { sessions } from "@/network/lib/auth";

export const dynamic = "force-dynamic";

/** Sign-in form post (@persona/platform/session signInRoute: limited attempts, same-origin next): check username + password, create a session row, set gl_session. */
export const POST = signInRoute(sessions);

import { signInRoute } from "@persona/platform/session";
import { sessions } from "@/airline/lib/auth";

export const dynamic = "force-dynamic";

/** Sign-in form post (@persona/platform/session signInRoute: limited attempts, same-origin next): MileagePass number + password; a new session row and the ma_session cookie. */
export const POST = signInRoute(sessions, (u) => u.trim().toUpperCase());

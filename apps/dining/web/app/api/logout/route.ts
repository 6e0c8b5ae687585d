import { dining } from "@/dining/lib/app";
/** Sign out (@persona/platform/session signOutRoute): delete this browser's session row and clear the cookie. */
export const POST = dining.signOutRoute;

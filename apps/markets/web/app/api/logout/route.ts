import { markets } from "@/markets/lib/app";
/** Sign out (@persona/platform/session signOutRoute): delete this browser's session row and clear the cookie. */
export const POST = markets.signOutRoute;

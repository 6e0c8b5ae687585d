import { rides } from "@/rides/lib/app";
/** Sign-in form post (@persona/platform/session signInRoute: limited attempts, same-origin next). */
export const POST = rides.signInRoute;

import { delivery } from "@/delivery/lib/app";
/** Sign-in form post (@persona/platform/session signInRoute: limited attempts, same-origin next). */
export const POST = delivery.signInRoute;

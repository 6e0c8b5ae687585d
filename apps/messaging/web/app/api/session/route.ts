import { messaging } from "@/messaging/lib/app";
/** Sign-in form post (@persona/platform/session signInRoute: limited attempts, same-origin next). */
export const POST = messaging.signInRoute;

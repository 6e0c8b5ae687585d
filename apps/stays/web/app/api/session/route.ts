import { stays } from "@/stays/lib/app";
/** Sign-in form post (@persona/platform/session signInRoute: limited attempts, same-origin next). */
export const POST = stays.signInRoute;

import { bank } from "@/bank/lib/app";
/** Sign-in form post (@persona/platform/session signInRoute: limited attempts, same-origin next). */
export const POST = bank.signInRoute;

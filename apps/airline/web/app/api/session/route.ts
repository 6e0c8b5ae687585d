import { airline } from "@/airline/lib/app";
/** Sign-in form post (@persona/platform/session signInRoute): MileagePass number + password. */
export const POST = airline.signInRoute;

import { board } from "@/board/lib/app";
/** Sign out (@persona/platform/session signOutRoute): delete this browser's session row and clear the cookie. */
export const POST = board.signOutRoute;

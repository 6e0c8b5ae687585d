import { NextResponse, type NextRequest } from "next/server";
import HOSTS from "./generated/hosts.json";

/**
 * One server, many origins: the request's Host picks the app, and `/<path>` is served by that
 * app's segment `/<name>/<path>`. Every path is prefixed, so `mail.test/bank/...` lands in the
 * mail app's own tree (its 404), never in the bank's. `<name>.localhost` also works for local runs.
 */
const BY_HOST = HOSTS as Record<string, string>;
const NAMES = new Set(Object.values(BY_HOST));
/** Largest body any route takes (bytes; nginx in the guest allows the same). Routes read less (readForm, readJson). */
const MAX_BODY = 25 * 1024 * 1024;

export function middleware(req: NextRequest) {
  const host = (req.headers.get("host") ?? "").toLowerCase().replace(/:\d+$/, "");
  const local = host.endsWith(".localhost") ? host.slice(0, -".localhost".length) : "";
  const app = BY_HOST[host] ?? (NAMES.has(local) ? local : undefined);
  if (!app) return new NextResponse("No app is served under this host name.\n", { status: 404 });
  if (Number(req.headers.get("content-length") ?? "0") > MAX_BODY) {
    return NextResponse.json({ error: "The request is too large." }, { status: 413 });
  }
  // Readiness of this host's app, answered here so a health check renders no page (the guest's control
  // API asks it of every app after each boot and reset; under TCG a page render costs ~0.5 s).
  if (new URL(req.url).pathname === "/_persona/health") return NextResponse.json({ app, status: "ok" });
  // req.url, not req.nextUrl: its origin is the server's own (see skipMiddlewareUrlNormalize).
  const url = new URL(req.url);
  url.pathname = `/${app}${url.pathname === "/" ? "" : url.pathname}`;
  return NextResponse.rewrite(url);
}

export const config = { matcher: ["/((?!_next/static|_next/image).*)"] };

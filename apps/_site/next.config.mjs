import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

/** @type {import('next').NextConfig} */
const nextConfig = {
  // A self-contained server: .next/standalone/_site/server.js (paths are relative to apps/).
  output: "standalone",
  // Trace from the workspace root so the shared packages and the hoisted node_modules are included.
  outputFileTracingRoot: path.join(here, ".."),
  // Native module: load it from node_modules at run time, never bundle it.
  serverExternalPackages: ["better-sqlite3"],
  // The shared packages ship TypeScript source.
  transpilePackages: ["@persona/ui", "@persona/platform"],
  // The middleware's request URL is then the server's own origin (127.0.0.1:<port>), the origin
  // Next compares a rewrite against; otherwise it sees "localhost" and proxies the rewrite to
  // itself as an external URL, running the middleware twice.
  skipMiddlewareUrlNormalize: true,
  poweredByHeader: false,
  reactStrictMode: true,
  eslint: { ignoreDuringBuilds: true },
  images: { unoptimized: true },
  experimental: {
    // Off: preloading every module of every page at start cost ~40 s of CPU under TCG and held every
    // app's health check back. Pages load on first visit instead (0.5-4 s under TCG), and the guest's
    // persona-warm.service visits each app's start page before run-image saves the reset point.
    preloadEntriesOnStart: false,
  },
};

export default nextConfig;

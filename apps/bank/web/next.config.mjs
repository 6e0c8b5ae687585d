import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

/** @type {import('next').NextConfig} */
const nextConfig = {
  // A self-contained server: .next/standalone/bank/web/server.js (paths are relative to apps/).
  output: "standalone",
  // Trace from the workspace root so @persona/ui (apps/_ui) and the hoisted node_modules are included.
  outputFileTracingRoot: path.join(here, "..", ".."),
  // Native module: load it from node_modules at run time, never bundle it.
  serverExternalPackages: ["better-sqlite3"],
  // The shared UI package ships TypeScript/TSX source.
  transpilePackages: ["@persona/ui"],
  poweredByHeader: false,
  reactStrictMode: true,
  eslint: { ignoreDuringBuilds: true },
  images: { unoptimized: true },
};

export default nextConfig;

import crypto from "node:crypto";

/**
 * Sign-in pieces every app shares. Each app keeps its own `users` and `sessions` tables and its
 * own cookie name (app.yaml `session_cookie`); the Firefox profile carries the seeded session.
 */

/**
 * Verify `scrypt$<salt hex>$<hash hex>` (scrypt N=16384, r=8, p=1, key length = hash length; RFC 7914). The
 * key derivation (~50 ms of CPU) runs on libuv's thread pool, so sign-ins never hold up the one Node thread that
 * serves every app.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, saltHex, hashHex] = String(stored).split("$");
  if (scheme !== "scrypt" || !saltHex || !hashHex) return false;
  const expected = Buffer.from(hashHex, "hex");
  if (expected.length === 0) return false;
  const got = await new Promise<Buffer>((resolve, reject) =>
    crypto.scrypt(password, Buffer.from(saltHex, "hex"), expected.length, { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
  return crypto.timingSafeEqual(got, expected);
}

/** A new session token: 48 hex characters. */
export function newSessionToken(): string {
  return crypto.randomBytes(24).toString("hex");
}

/** `Set-Cookie` value: host-only, path /, HttpOnly, SameSite=Lax (plain http in the guest, so no Secure). */
export function sessionCookieHeader(name: string, token: string | null, days: number): string {
  if (!token) return `${name}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
  return `${name}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${days * 86400}`;
}

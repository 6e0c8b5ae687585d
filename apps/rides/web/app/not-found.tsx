import Link from "next/link";
import { Logo } from "@/rides/components/Logo";

export default function NotFound() {
  return (
    <div className="zr-login">
      <div className="zr-login-card">
        <Logo size={44} />
        <h1>Wrong turn</h1>
        <p className="zr-muted">That ride or page doesn't exist.</p>
        <p>
          <Link href="/">Back to ZipRide</Link>
        </p>
      </div>
    </div>
  );
}

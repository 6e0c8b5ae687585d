import Link from "next/link";
import { Logo } from "@/airline/components/Logo";

export default function NotFound() {
  return (
    <div className="ma-login">
      <div className="ma-login-card">
        <Logo />
        <h1>We couldn't find that page</h1>
        <p className="ma-muted">The trip or page you asked for isn't here.</p>
        <p>
          <Link href="/">Go to My Trips</Link>
        </p>
      </div>
    </div>
  );
}

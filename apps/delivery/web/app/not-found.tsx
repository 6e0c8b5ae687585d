import Link from "next/link";
import { Logo } from "@/delivery/components/Logo";

export default function NotFound() {
  return (
    <div className="dbt-login">
      <div className="dbt-login-card">
        <Logo size={44} />
        <h1>Nothing on this plate</h1>
        <p className="dbt-muted">That restaurant, order or page doesn't exist.</p>
        <p>
          <Link href="/">Back to DashBite</Link>
        </p>
      </div>
    </div>
  );
}

import { Button, Card, PageHeader } from "@persona/ui";
import { maskNumber } from "@persona/ui/format";
import { requireUser } from "@/bank/lib/auth";
import { listAccounts } from "@/bank/lib/bank";
import { bankContext, formatters } from "@/bank/lib/context";
import { kindLabel, routingLabel } from "@/bank/lib/labels";

export const metadata = { title: "Profile" };

export default async function ProfilePage() {
  const user = await requireUser();
  const ctx = bankContext();
  const f = formatters(ctx);
  const accounts = listAccounts(user.id);
  return (
    <>
      <PageHeader title="Profile & settings" subtitle="Your contact details and accounts at Larkspur Bank." />
      <div className="lb-form-grid">
        <Card title="Personal information">
          <dl className="lb-receipt" data-testid="profile">
            <dt>Name</dt>
            <dd>{user.full_name}</dd>
            <dt>Username</dt>
            <dd>{user.username}</dd>
            <dt>Email</dt>
            <dd>{user.email}</dd>
            <dt>Phone</dt>
            <dd>{user.phone}</dd>
            <dt>Mailing address</dt>
            <dd>{user.address}</dd>
          </dl>
        </Card>
        <Card title="Sign out">
          <p className="muted" style={{ marginTop: 0 }}>
            Signing out ends this session on this browser.
          </p>
          <form action="/api/logout" method="post">
            <Button variant="danger">Sign out</Button>
          </form>
        </Card>
      </div>
      <Card title="Your accounts">
        <ul className="lb-list">
          {accounts.map((a) => (
            <li key={a.id}>
              <span>
                {a.name}
                <span className="sub">
                  {kindLabel(a.kind, ctx.locale)} {maskNumber(a.number)} · opened {f.date(a.opened_on)}
                </span>
              </span>
              {a.routing_number ? <span className="sub">
                  {routingLabel(ctx.locale)} {a.routing_number}
                </span> : null}
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}

import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { Header } from "@/rides/components/Header";
import { PlaceIcon } from "@/rides/components/Logo";
import { requireUser } from "@/rides/lib/auth";
import { rideContext } from "@/rides/lib/context";
import { places, savedPlaces } from "@/rides/lib/rides";

export const metadata = { title: "Saved places" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export default async function Places({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const ctx = rideContext();
  const sp = await searchParams;
  const error = errorMessage(sp);
  const saved = savedPlaces();
  const known = places().filter((p) => p.city === ctx.city);
  const done = one(sp.saved) ? "Place saved." : one(sp.renamed) ? "Place renamed." : one(sp.deleted) ? "Place removed." : "";
  return (
    <>
      <Header active="/places" name={user.full_name} />
      <main className="zr-page">
        <h1>Saved places</h1>
        {error ? <p className="zr-alert" role="alert" data-testid="places-error">{error}</p> : null}
        {done ? <p className="zr-note" role="status">{done}</p> : null}
        <ul className="zr-list" data-testid="saved-list">
          {saved.map((s) => (
            <li key={s.saved_id} className="zr-row" data-testid="saved-row">
              <div className="zr-place">
                <PlaceIcon icon={s.icon} />
                <span>
                  <strong>{s.label}</strong>
                  <br />
                  <span className="zr-muted">{s.address}</span>
                </span>
              </div>
              <div className="zr-row-end zr-place-actions">
                <form action={`/api/places/${s.saved_id}`} method="post" className="zr-inline">
                  <input type="hidden" name="_idem" value={idempotencyToken()} />
                  <input type="hidden" name="action" value="rename" />
                  <input name="label" defaultValue={s.label} aria-label={`New name for ${s.label}`} maxLength={40} required />
                  <button type="submit" className="zr-secondary">Rename</button>
                </form>
                <form action={`/api/places/${s.saved_id}`} method="post">
                  <input type="hidden" name="_idem" value={idempotencyToken()} />
                  <input type="hidden" name="action" value="delete" />
                  <button type="submit" className="zr-link-button">Remove</button>
                </form>
              </div>
            </li>
          ))}
        </ul>
        <h2>Add a place</h2>
        <form action="/api/places" method="post" className="zr-form zr-add-place" data-testid="add-place">
          <input type="hidden" name="_idem" value={idempotencyToken()} />
          <label>
            Name
            <input name="label" placeholder="Gym, Mum's, Office" defaultValue={one(sp.label)} maxLength={40} required />
          </label>
          <label>
            Address
            <input name="address" list="zr-known-places" placeholder="Street, city" defaultValue={one(sp.address)} maxLength={200} required />
          </label>
          <datalist id="zr-known-places">
            {known.map((p) => (
              <option key={p.id} value={p.address}>{p.name}</option>
            ))}
          </datalist>
          <button type="submit" className="zr-primary">Save place</button>
        </form>
      </main>
    </>
  );
}

import Link from "next/link";
import { Stars } from "@/dining/components/Brand";
import { Photo } from "@/dining/components/Photo";
import { Alert, Shell, signedIn } from "@/dining/components/Shell";
import type { SearchParams } from "@/dining/lib/params";
import { bandText, favourites } from "@/dining/lib/tabletime";
import { errorMessage } from "@persona/platform/http";

export const metadata = { title: "Saved restaurants" };

export default async function Favorites({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const user = await signedIn("/favorites");
  const saved = favourites(user.id);
  return (
    <Shell user={user} current="/favorites">
      <h1>Saved restaurants</h1>
      <Alert error={errorMessage(sp)} />
      {saved.length === 0 ? <p className="tt-empty">Tap ♡ Save on a restaurant to keep it here.</p> : null}
      <div className="tt-grid">
        {saved.map((r) => (
          <div key={r.id} className="tt-card" data-testid="favourite-card" data-slug={r.slug}>
            <Link href={`/r/${r.slug}`}>
              <Photo palette={r.palette} motif={r.motif} label={r.name} height={120} />
            </Link>
            <div className="tt-card-body">
              <Link href={`/r/${r.slug}`} className="tt-card-title">{r.name}</Link>
              <div className="tt-meta"><Stars x10={r.rating_x10} /> {(r.rating_x10 / 10).toFixed(1)}</div>
              <div className="tt-meta">{r.cuisine} · {bandText(r.band)} · {r.neighbourhood}, {r.city}</div>
              <form action="/api/favorites" method="post">
                <input type="hidden" name="slug" value={r.slug} />
                <input type="hidden" name="on" value="0" />
                <input type="hidden" name="back" value="favorites" />
                <button type="submit" className="tt-link-button">Remove</button>
              </form>
            </div>
          </div>
        ))}
      </div>
    </Shell>
  );
}

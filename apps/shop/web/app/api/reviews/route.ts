import { back, field, formPost, withQuery } from "@/shop/lib/http";
import { addReview } from "@/shop/lib/shop";

export const dynamic = "force-dynamic";

/** The persona's review of a bought product (product, rating, headline, body). */
export const POST = formPost({
  act: (user, form) => {
    const p = addReview(user, field(form, "product"), field(form, "rating"), field(form, "headline"), field(form, "body"));
    return withQuery(`/p/${p.slug}`, { reviewed: 1 });
  },
  failed: (e, form) => withQuery(back(form, "/orders"), { error: e.message }),
});

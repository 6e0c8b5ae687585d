import { rateOrder } from "@/delivery/lib/dash";
import { field, formPost, pathId, withQuery } from "@/delivery/lib/http";

export const dynamic = "force-dynamic";

/** Rate a delivered order once: `stars` 1-5, `comment` (optional, up to 500 characters, stored verbatim). */
export const POST = formPost({
  act: (_user, form, req) => {
    const id = pathId(req, 2);
    rateOrder(id, field(form, "stars"), field(form, "comment"));
    return `/orders/${id}?rated=1`;
  },
  failed: (e, _form, req) => {
    const id = pathId(req, 2);
    return withQuery(id === null ? "/orders" : `/orders/${id}`, { error: e.message });
  },
});

import { back, field, formPost, withQuery } from "@/shop/lib/http";
import { addAddress } from "@/shop/lib/shop";

export const dynamic = "force-dynamic";

/** Save a delivery address (name, street, city, region, postcode, label); back to the account page or checkout. */
export const POST = formPost({
  act: (user, form) => {
    const id = addAddress(user.id, { name: field(form, "name"), street: field(form, "street"), city: field(form, "city"), region: field(form, "region"), postcode: field(form, "postcode"), label: field(form, "label") });
    return withQuery(back(form, "/account"), { address: id, saved: 1 });
  },
  failed: (e, form) => withQuery("/account", { error: e.message, back: back(form, "/account") === "/checkout" ? "/checkout" : "" }),
});

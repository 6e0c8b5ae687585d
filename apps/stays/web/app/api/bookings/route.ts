import { formPost, field, withQuery } from "@/stays/lib/http";
import { book } from "@/stays/lib/stays";

export const dynamic = "force-dynamic";

const keys = ["p", "room", "plan", "checkin", "checkout", "guests"] as const;

/** Book and pay: fields p (property slug), room, plan, checkin, checkout, guests, card, request. */
export const POST = formPost({
  act: async (user, form) => {
    const conf = await book(user.id, {
      slug: field(form, "p"),
      room: field(form, "room"),
      plan: field(form, "plan"),
      checkIn: field(form, "checkin"),
      checkOut: field(form, "checkout"),
      guests: field(form, "guests"),
      card: field(form, "card"),
      request: field(form, "request"),
    });
    return `/trips/${conf}?booked=1`;
  },
  failed: (e, form) => withQuery("/book", { ...Object.fromEntries(keys.map((k) => [k, field(form, k)])), error: e.message }),
});

import { addContact, EMAIL_CHARS, NAME_CHARS, PHONE_CHARS } from "@/bank/lib/bank";
import { formPost, withQuery } from "@/bank/lib/http";

export const dynamic = "force-dynamic";

/**
 * Save a Zelle recipient (one per form token): back to /send-money with them chosen, or to the open "Add a recipient"
 * form with the error (`form=contact`). Fields over their caps are refused before anything else, and the refill
 * carries at most the caps.
 */
export const POST = formPost({
  page: "/send-money",
  fields: ["name", "email", "phone"],
  caps: { name: NAME_CHARS, email: EMAIL_CHARS, phone: PHONE_CHARS },
  act: (user, v) => ({ contact: addContact(user.id, v.name, v.email, v.phone), added: 1 }),
  failed: (e, v) => withQuery("/send-money", { new_contact: 1, ...v, form: "contact", error: e.message }) + "#add-contact",
});

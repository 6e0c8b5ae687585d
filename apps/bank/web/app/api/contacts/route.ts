import { addContact } from "@/bank/lib/bank";
import { formPost, withQuery } from "@/bank/lib/http";

export const dynamic = "force-dynamic";

/** Save a Zelle recipient: back to /send-money with them chosen, or to the open "Add a recipient" form with the error. */
export const POST = formPost({
  page: "/send-money",
  fields: ["name", "email", "phone"],
  act: (user, v) => ({ contact: addContact(user.id, v.name, v.email, v.phone), added: 1 }),
  failed: (e, v) => withQuery("/send-money", { new_contact: 1, ...v, contact_error: e.message }) + "#add-contact",
});

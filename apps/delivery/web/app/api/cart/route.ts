import { addToCart, clearCart, removeCartLine, restaurantById, updateCartLine } from "@/delivery/lib/dash";
import { safePath } from "@persona/platform/http";
import { DashError, field, formPost, idValue, withQuery } from "@/delivery/lib/http";

export const dynamic = "force-dynamic";

/**
 * The cart: `action` = `add` (`item` menu item id, `qty` 1-20, `option` key:choice ids (repeated), `instructions`
 * up to 200 characters, `replace` "1" to start a new cart from another restaurant), `update` (`line`, `qty`),
 * `remove` (`line`), `clear`. Bad input changes nothing and returns with `error`.
 */
export const POST = formPost({
  act: (_user, form) => {
    const action = field(form, "action");
    if (action === "add") {
      const item = addToCart({
        menuItemId: idValue(field(form, "item")),
        qty: field(form, "qty") || "1",
        // Checkboxes post `option`; each required group's radios post `option:<group>` (one radio set per group).
        optionIds: [...form.entries()].filter(([k]) => k === "option" || k.startsWith("option:")).map(([, v]) => String(v)),
        instructions: field(form, "instructions"),
        replace: field(form, "replace") === "1",
      });
      return withQuery(`/store/${restaurantById(item.restaurant_id)!.slug}`, { added: item.name });
    }
    if (action === "update") {
      updateCartLine(idValue(field(form, "line")), field(form, "qty"));
      return "/checkout";
    }
    if (action === "remove") {
      removeCartLine(idValue(field(form, "line")));
      return "/checkout";
    }
    if (action === "clear") {
      clearCart();
      return "/checkout";
    }
    throw new DashError("Unknown cart action.");
  },
  failed: (e, form) => {
    // `back`: the page the form was on (same-origin paths only), its own query dropped for the error's.
    const path = safePath(field(form, "back"), "/checkout").replace(/[?#].*$/, "");
    return withQuery(path, { error: e.message });
  },
});

import type { DashContext } from "./context";

/**
 * DashBite's interface words in the persona's language: English, or German for a `de` locale (dish names and
 * option labels already come from the seed in the persona's language). Messages of refused input stay English.
 */
const EN = {
  home: "Home", orders: "Orders", account: "Account", cart: "Cart", signOut: "Sign out",
  search: "Search restaurants, cuisines or dishes", deliveringIn: "Delivering in",
  yourUsual: "Your usual", lastOrdered: "Last ordered", reorderNow: "Reorder now", reviewInCart: "Review in cart",
  orderAgain: "Order again", all: "All", resultsFor: "Results for", nearYou: "near you", allIn: "All restaurants in",
  noMatch: "No restaurants match. Try another dish or cuisine.", min: "min", opens: "Opens", delivery: "delivery",
  freeDelivery: "Free delivery", ratings: "ratings", closedNow: "Closed now", deliveryFee: "delivery fee", hours: "Hours",
  smallOrderFee: "Small order fee", under: "under", added: "Added", toCart: "to your cart.", goToCheckout: "Go to checkout",
  yourCart: "Your cart", cartEmpty: "Your cart is empty.", cartFrom: "Your cart is from", subtotal: "Subtotal",
  checkout: "Checkout", popular: "Popular", from: "From", update: "Update", remove: "Remove", emptyCart: "Empty cart",
  deliverTo: "Deliver to", addAddress: "Add an address", dropoff: "Drop-off instructions", when: "When",
  asap: "As soon as possible", scheduleFor: "Schedule for", tipDriver: "Tip your driver", other: "Other",
  tipDefault: (p: number) => `Your default is ${p}% of the subtotal. 100% of the tip goes to your driver.`,
  promoCode: "Promo code", payWith: "Pay with", promo: "Promo", deliveryFeeCap: "Delivery fee", serviceFee: "Service fee",
  smallOrderFeeCap: "Small order fee", tip: "Tip", total: "Total", updateTotals: "Update totals", placeOrder: "Place order",
  allOrders: "All orders", order: "Order", placed: "placed", delivered: "Delivered", arriving: "Arriving around",
  chargedTo: "Charged to", deliveredTo: "Delivered to", deliveringTo: "Delivering to", reorder: "Reorder",
  reorderAsap: "Reorder now · deliver ASAP", yourRating: "Your rating", rateOrder: "Rate order", comment: "Comment (optional)",
  allMonths: "All months", show: "Show", inTotal: "in total", findFood: "Find something to eat",
  dropoffHint: "Leave at the door, ring twice…", amount: "Amount", promoHint: "e.g. SAVE5", instructionsHint: "No onions, sauce on the side…",
  specialInstructions: "Special instructions", quantity: "Quantity", addToCart: "Add to cart", required: "Required · choose 1",
  optional: (n: number) => `Optional · up to ${n}`,
  sections: { starters: "Starters", mains: "Mains", sides: "Sides", desserts: "Desserts", drinks: "Drinks" } as Record<string, string>,
  steps: { scheduled: "Scheduled", placed: "Order placed", preparing: "Preparing", on_the_way: "On the way", delivered: "Delivered" } as Record<string, string>,
  cuisines: {} as Record<string, string>,
};

const DE: typeof EN = {
  ...EN,
  home: "Start", orders: "Bestellungen", account: "Konto", cart: "Warenkorb", signOut: "Abmelden",
  search: "Restaurants, Küchen oder Gerichte suchen", deliveringIn: "Lieferung nach",
  yourUsual: "Wie immer", lastOrdered: "Zuletzt bestellt", reorderNow: "Jetzt nachbestellen", reviewInCart: "Im Warenkorb ansehen",
  orderAgain: "Nochmal bestellen", all: "Alle", resultsFor: "Ergebnisse für", nearYou: "in der Nähe", allIn: "Alle Restaurants in",
  noMatch: "Keine Restaurants gefunden. Versuch ein anderes Gericht oder eine andere Küche.", opens: "Öffnet", delivery: "Lieferung",
  freeDelivery: "Gratis Lieferung", ratings: "Bewertungen", closedNow: "Jetzt geschlossen", deliveryFee: "Liefergebühr",
  hours: "Geöffnet", smallOrderFee: "Mindermengenzuschlag", under: "unter", added: "", toCart: "liegt im Warenkorb.",
  goToCheckout: "Zur Kasse", yourCart: "Dein Warenkorb", cartEmpty: "Dein Warenkorb ist leer.", cartFrom: "Dein Warenkorb ist von",
  subtotal: "Zwischensumme", checkout: "Kasse", popular: "Beliebt", from: "Von", update: "Ändern", remove: "Entfernen",
  emptyCart: "Warenkorb leeren", deliverTo: "Lieferadresse", addAddress: "Adresse hinzufügen", dropoff: "Hinweise für die Lieferung",
  when: "Wann", asap: "So schnell wie möglich", scheduleFor: "Planen für", tipDriver: "Trinkgeld für den Fahrer", other: "Anderes",
  tipDefault: (p: number) => `Standard sind ${p} % der Zwischensumme. Das Trinkgeld geht vollständig an den Fahrer.`,
  promoCode: "Gutscheincode", payWith: "Bezahlen mit", promo: "Gutschein", deliveryFeeCap: "Liefergebühr", serviceFee: "Servicegebühr",
  smallOrderFeeCap: "Mindermengenzuschlag", tip: "Trinkgeld", total: "Gesamt", updateTotals: "Summe aktualisieren",
  placeOrder: "Bestellen", allOrders: "Alle Bestellungen", order: "Bestellung", placed: "aufgegeben", delivered: "Geliefert",
  arriving: "Ankunft gegen", chargedTo: "Belastet auf", deliveredTo: "Geliefert an", deliveringTo: "Lieferung an",
  reorder: "Nachbestellen", reorderAsap: "Sofort nachbestellen", yourRating: "Deine Bewertung", rateOrder: "Bewerten",
  comment: "Kommentar (optional)", allMonths: "Alle Monate", show: "Anzeigen", inTotal: "insgesamt",
  findFood: "Etwas zu essen finden", dropoffHint: "Vor der Tür abstellen, zweimal klingeln …", amount: "Betrag",
  promoHint: "z. B. SAVE5", instructionsHint: "Ohne Zwiebeln, Soße extra …", specialInstructions: "Sonderwünsche", quantity: "Menge", addToCart: "In den Warenkorb",
  required: "Pflicht · 1 wählen", optional: (n: number) => `Optional · bis zu ${n}`,
  sections: { starters: "Vorspeisen", mains: "Hauptgerichte", sides: "Beilagen", desserts: "Desserts", drinks: "Getränke" },
  steps: { scheduled: "Geplant", placed: "Bestellt", preparing: "Wird zubereitet", on_the_way: "Unterwegs", delivered: "Geliefert" },
  cuisines: {
    Thai: "Thailändisch", Ethiopian: "Äthiopisch", Italian: "Italienisch", Mexican: "Mexikanisch", Japanese: "Japanisch",
    Indian: "Indisch", Vietnamese: "Vietnamesisch", Greek: "Griechisch", Korean: "Koreanisch", Lebanese: "Libanesisch",
    Spanish: "Spanisch", Chinese: "Chinesisch", Turkish: "Türkisch", German: "Deutsch", British: "Britisch", French: "Französisch",
    American: "Amerikanisch",
  },
};

export type Words = typeof EN;

export function words(ctx: DashContext): Words {
  return ctx.locale.startsWith("de") ? DE : EN;
}

/** A cuisine's name in the persona's language (the database keeps the English key). */
export function cuisineName(w: Words, cuisine: string): string {
  return w.cuisines[cuisine] ?? cuisine;
}

/**
 * Basketful's interface words in the persona's language: English (en-US, en-GB) as written in the pages,
 * German for de-DE. `w(locale, "Orders")` answers the German word when there is one, else the English.
 */
const DE: Record<string, string> = {
  Stores: "Märkte", Orders: "Bestellungen", Lists: "Listen", Cart: "Warenkorb", Search: "Suchen", "Sign out": "Abmelden",
  Shop: "Einkaufen", "Your usual": "Ihr Stammmarkt", "Your last order": "Ihre letzte Bestellung", "View order": "Bestellung ansehen",
  "Delivering to": "Lieferung an", "Stores near you in": "Märkte in Ihrer Nähe in", "Delivery or pickup": "Lieferung oder Abholung",
  "Delivery only": "Nur Lieferung", "All aisles": "Alle Gänge", "Change store": "Markt wechseln", Brand: "Marke",
  "All brands": "Alle Marken", "Price up to": "Preis bis", Sort: "Sortieren", "Aisle order": "Nach Gang",
  "Price: low to high": "Preis aufsteigend", "Unit price: low to high": "Grundpreis aufsteigend", Name: "Name", Apply: "Anwenden",
  products: "Produkte", "+ Add": "+ Hinzufügen", "Add to cart": "In den Warenkorb", "Save to list": "Auf die Liste", Save: "Speichern",
  "Price at each store": "Preis in jedem Markt", "This cart at other stores": "Dieser Warenkorb in anderen Märkten", Lowest: "Am günstigsten",
  Delivery: "Lieferung", Pickup: "Abholung", "Delivery window": "Lieferfenster", "Pickup window": "Abholfenster", left: "frei",
  Full: "Ausgebucht", Closed: "Geschlossen", "Tip your shopper (100% goes to them)": "Trinkgeld für Ihre Einkäuferin (geht zu 100 % an sie)",
  "Pay with": "Bezahlen mit", "Delivery instructions": "Lieferhinweise", Subtotal: "Zwischensumme", "Delivery fee": "Liefergebühr",
  "Service fee": "Servicegebühr", Tip: "Trinkgeld", "Other amount": "Anderer Betrag", Total: "Gesamt", "Place order": "Bestellung aufgeben", Update: "Ändern",
  Qty: "Menge", Substitution: "Ersatz", Replacement: "Ersatzartikel", "Best match": "Beste Alternative", "Specific item": "Bestimmter Artikel",
  "Don't substitute": "Nicht ersetzen", "Your orders": "Ihre Bestellungen", Reorder: "Erneut bestellen", Delivered: "Geliefert",
  "Order placed": "Bestellt", "Reorder these items": "Diese Artikel erneut bestellen", "New list": "Neue Liste", "Create list": "Liste anlegen",
  "Prices at": "Preise bei", Show: "Anzeigen", Remove: "Entfernen", open: "geöffnet", any: "beliebig", Open: "Geöffnet",
  "delivers within": "liefert im Umkreis von", "Pick up at": "Abholung bei", "Deliver to": "Lieferung an",
  "Notes for the store": "Hinweise für den Markt", midnight: "24:00",
};

export function w(locale: string, text: string): string {
  return locale.startsWith("de") ? DE[text] ?? text : text;
}

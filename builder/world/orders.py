"""Orders and outings: food delivery, grocery delivery, online shopping, restaurant bookings, local rides.

Rules (tasks, apps and tests depend on them):

* Volumes follow the persona's routines "per month" (times the budget's ``squeeze``, 1 unless the
  pay cannot carry them) (a month = 30.4375 days) over the history:
  each kind's count is its rate times the history's length, spread over the days the persona is
  at home (not between a trip's ``depart`` and ``return``) by systematic sampling with a random
  phase, then nudged by up to two days; so the counts are exact and the dates irregular.
* ``food_order`` (DashBite), evenings (some weekend lunches): about half are the persona's
  ``usual_order`` (same restaurant, items, prices and total every time); the rest come from two
  DashBite restaurants of each persona cuisine (``world/delivery.py``, ``builder/reference/delivery``; streams
  ``delivery/favourites`` and ``delivery/orders/items``): catalogue dishes with their options at the menu's
  prices, the basket at least the restaurant's minimum. Fees = the restaurant's delivery fee + 10 % service
  fee (half up); tip = ``tipping_percent`` of the subtotal (floored); charged at placement.
* ``grocery_order`` (Basketful): delivered on ``groceries_day`` in most weeks when
  ``grocery_delivery`` (ordered the evening before or that morning), top-up orders on other days;
  charged at placement; every delivery window closes before ``now``.
* ``retail_order`` (Shopwell): 1-3 items drawn from Shopwell's catalogue (:mod:`.retail`, stream
  ``orders/retail/items``; the persona's brands three times in ten), shipping free from 35.00, shipped 1-2 days after the order, delivered 2-6 days after
  that (``retail_delivery`` event); charged at placement. One or two orders placed just before
  ``now`` are still in transit (their ``retail_delivery`` is scheduled).
* Birthday presents: for close family with an address, most years a one-item ``retail_order`` (with
  ``gift_for`` and ``gift_birthday``; a catalogue product of a gift line, stream
  ``orders/gifts/<name>/<year>/item``) placed 6-12 days before the birthday and shipped to them,
  delivered before the birthday (and before ``now``).
* The spec's own ``purchases`` (step ``simulate_spec_purchases``, streams ``orders/spec/<i>``; nothing drawn
  without them), besides the drawn orders: one without ``merchant`` (or naming Shopwell) is a ``retail_order``
  placed on its date at a waking minute, holding one line, ``quantity`` x the item at ``price`` (named verbatim;
  the catalogue product of that title, else Shopwell's own listing of it: :func:`builder.reference.retail.catalogue.spec_item`), with the
  shop's shipping rule (total = price x quantity + shipping, 5.99 below 35.00, no tax), shipped 1-2 days later and
  delivered 2-6 days after that to home (``retail_delivery``), charged at placement to the everyday card with
  ``category`` (default ``shopping``); mail_orders mails it as every Shopwell order. Another ``merchant`` is a
  ``card_purchase`` of price x quantity there (in the trip's destination on a day away, else the home city), its
  bank line's memo the item (``2 × item``), the event carrying ``item`` and ``quantity``.
* ``restaurant_booking`` (TableTime): booked 1-10 days ahead; the meal is a ``card_purchase`` at a
  city restaurant merchant at the end of the meal (category ``restaurants``, data carries the
  ``restaurant_booking`` id). One or two bookings are upcoming (their meal is scheduled).
  The restaurants come from TableTime's catalogue of the home city (``world/dining.py``, ``builder/reference/dining``:
  the file's, or generated for a city it lacks): the cuisine restaurants and a few more, each at its catalogue
  address (a cuisine TableTime lacks there: the world's own names, at made-up addresses); a booking may carry a
  ``special_request``. They are added to ``sim.merchants`` (category ``restaurants``, the persona's city).
* ``ride`` (ZipRide, ``trip`` None): between home, the office, restaurants and close people's homes;
  a ``rideshare`` commuter also rides to the office (75 % of office days) and back (60 %).
* ``grocery_order`` baskets come from a :class:`Pantry`: each staple lasts ``LASTS_DAYS`` for one
  person (divided by household size ** 0.8) and is bought when it runs out before the next shop;
  each staple is a product of Basketful's catalogue (:mod:`.grocery`), bought at the order's store (stream
  ``orders/grocery/store``) at that store's price, with a treat three times in ten (``orders/grocery/extras``);
  fees follow :func:`builder.reference.grocery.catalogue.fees`. No grocery orders at all when
  ``grocery_delivery`` is false (the weekly shop is then an in-store card purchase, finance.py).
* Bookings are placed at waking hours (after wake-up + 1 h, before bedtime - 1 h) unless the
  persona is a ``night_owl``.
"""

from __future__ import annotations

import datetime as dt

from ..money import cents, floor_unit
from ..persona.model import name_key
from ..reference import prices
from ..reference.services import service
from ..rng import derived_id
from . import delivery as dashbite
from . import dining, grocery, retail
from .calendar import add_timed, first, parse_when, person, reservation_time, words
from .context import Charge, Sim
from ..reference.delivery import catalogue as dashbite_catalogue
from ..reference.delivery.catalogue import usual_split
from ..reference.grocery import catalogue as basketful
from ..reference.retail import catalogue as shopwell
from .engine import world_step
from .finance import budget, household_size, purchase
from .mail import business_sender, mailbox, order_lines, quoting, render, sent_after, site_domain
from .model import Merchant
from ..reference.addresses import format_address, street_address
from .travel import card_description, from_local, iso, ride

DASHBITE = (service("food-delivery").title, service("food-delivery").url)
BASKETFUL = (service("grocery-delivery").title, service("grocery-delivery").url)
SHOPWELL = (service("retail").title, service("retail").url)
TABLETIME = (service("restaurant-reservations").title, service("restaurant-reservations").url)
MONTH_DAYS = 30.4375
#: Dinners a friend paid for and asks the persona to pay back: at most REQUESTS_OPEN, of the last REQUEST_DAYS
#: (builder/world/requests.py sends the asks).
REQUESTS_OPEN = 2
REQUEST_DAYS = 14

# cuisine: (restaurant names, dishes (name, price cents))
CUISINES: dict[str, tuple[tuple[str, ...], tuple[tuple[str, int], ...]]] = {
    "Thai": (
        ("Siam Orchid", "Lemongrass Thai Kitchen", "Bangkok Street Eats"),
        (
            ("Pad thai with chicken", 1595),
            ("Green curry with tofu", 1650),
            ("Pad kee mao", 1595),
            ("Massaman curry", 1750),
            ("Tom yum soup", 895),
            ("Fresh rolls", 750),
            ("Sticky rice with mango", 850),
            ("Thai iced tea", 495),
            ("Larb gai", 1450),
        ),
    ),
    "Ethiopian": (
        ("Blue Nile Kitchen", "Lalibela Cafe", "Addis Table"),
        (
            ("Doro wat", 1895),
            ("Veggie combo for one", 1750),
            ("Misir wat", 1495),
            ("Tibs", 1850),
            ("Shiro", 1395),
            ("Extra injera", 300),
            ("Sambusa (2)", 650),
            ("Ethiopian coffee", 450),
        ),
    ),
    "Italian": (
        ("Nonna Rosa Trattoria", "Osteria del Ponte", "Via Carota Pasta Bar"),
        (
            ("Spaghetti carbonara", 1895),
            ("Margherita pizza", 1650),
            ("Lasagna bolognese", 2050),
            ("Mushroom risotto", 1950),
            ("Caesar salad", 1150),
            ("Garlic bread", 650),
            ("Tiramisu", 850),
            ("Penne arrabbiata", 1650),
            ("San Pellegrino", 350),
        ),
    ),
    "Mexican": (
        ("La Palma Taqueria", "El Camino Cocina", "Casa Azul"),
        (
            ("Carnitas burrito", 1395),
            ("Tacos al pastor (3)", 1295),
            ("Chicken enchiladas", 1550),
            ("Chips and guacamole", 795),
            ("Veggie quesadilla", 1195),
            ("Horchata", 450),
            ("Elote", 595),
            ("Carne asada bowl", 1495),
        ),
    ),
    "Japanese": (
        ("Sakura Sushi Bar", "Kaze Ramen", "Hinode Izakaya"),
        (
            ("Tonkotsu ramen", 1650),
            ("Salmon nigiri (2)", 795),
            ("Spicy tuna roll", 995),
            ("Chicken katsu curry", 1595),
            ("Gyoza (6)", 795),
            ("Edamame", 550),
            ("Miso soup", 395),
            ("Veggie udon", 1450),
        ),
    ),
    "Indian": (
        ("Saffron Spice", "Tandoor House", "Masala Junction"),
        (
            ("Chicken tikka masala", 1795),
            ("Palak paneer", 1595),
            ("Chana masala", 1395),
            ("Lamb rogan josh", 1995),
            ("Garlic naan", 450),
            ("Vegetable samosas (2)", 695),
            ("Basmati rice", 395),
            ("Mango lassi", 550),
        ),
    ),
    "Vietnamese": (
        ("Pho Saigon House", "Little Hanoi", "Lotus Banh Mi"),
        (
            ("Pho tai", 1495),
            ("Bun cha", 1550),
            ("Banh mi thit nuong", 1095),
            ("Spring rolls (2)", 795),
            ("Com tam", 1595),
            ("Vietnamese iced coffee", 550),
            ("Lemongrass tofu", 1395),
        ),
    ),
    "Greek": (
        ("Olive & Fig Taverna", "Santorini Grill", "Yia Yia's Kitchen"),
        (
            ("Chicken souvlaki plate", 1795),
            ("Lamb gyro", 1395),
            ("Spanakopita", 1095),
            ("Greek salad", 1195),
            ("Falafel wrap", 1195),
            ("Hummus and pita", 850),
            ("Baklava", 595),
        ),
    ),
    "Korean": (
        ("Seoul Kitchen", "Hanok BBQ", "Gochu House"),
        (
            ("Bibimbap", 1595),
            ("Bulgogi plate", 1895),
            ("Kimchi jjigae", 1495),
            ("Korean fried chicken", 1795),
            ("Japchae", 1395),
            ("Tteokbokki", 1195),
            ("Mandu (6)", 895),
        ),
    ),
    "Lebanese": (
        ("Cedar Grill", "Beirut Bites", "Byblos Kitchen"),
        (
            ("Chicken shawarma plate", 1695),
            ("Falafel plate", 1395),
            ("Mixed grill", 2295),
            ("Fattoush", 1095),
            ("Hummus", 750),
            ("Baba ghanoush", 795),
            ("Lentil soup", 695),
        ),
    ),
    "Spanish": (
        ("Casa Tapas", "La Rambla Bar", "El Mercado"),
        (
            ("Patatas bravas", 850),
            ("Gambas al ajillo", 1450),
            ("Paella valenciana", 2895),
            ("Tortilla espanola", 950),
            ("Croquetas (4)", 950),
            ("Pan con tomate", 650),
            ("Churros", 750),
        ),
    ),
    "Chinese": (
        ("Golden Dragon", "Sichuan House", "Jade Garden"),
        (
            ("Kung pao chicken", 1550),
            ("Mapo tofu", 1450),
            ("Beef chow fun", 1595),
            ("Dan dan noodles", 1350),
            ("Pork dumplings (8)", 1095),
            ("Scallion pancake", 795),
            ("Hot and sour soup", 695),
            ("Vegetable fried rice", 1195),
        ),
    ),
}
CUISINES.update(
    {
        "Turkish": (
            ("Anatolia Grill", "Istanbul Ocakbaşı", "Lale Meze Bar"),
            (
                ("Adana kebab", 1650),
                ("Lahmacun (2)", 1100),
                ("Köfte plate", 1550),
                ("Iskender kebab", 1795),
                ("Lentil soup", 695),
                ("Meze platter", 1395),
                ("Baklava", 650),
                ("Ayran", 350),
            ),
        ),
        "German": (
            ("Zur Alten Mühle", "Brauhaus am Markt", "Gasthof Linde"),
            (
                ("Schnitzel with potato salad", 1895),
                ("Currywurst and fries", 1095),
                ("Käsespätzle", 1450),
                ("Rinderroulade", 2150),
                ("Flammkuchen", 1295),
                ("Apfelstrudel", 695),
                ("Apfelschorle", 395),
            ),
        ),
        "British": (
            ("The Kings Head Kitchen", "Rose & Crown", "The Corner Chippy"),
            (
                ("Fish and chips", 1495),
                ("Steak and ale pie", 1550),
                ("Bangers and mash", 1350),
                ("Mushy peas", 350),
                ("Sticky toffee pudding", 695),
                ("Chips", 395),
                ("Scotch egg", 595),
            ),
        ),
        "French": (
            ("Le Petit Zinc", "Bistro Margaux", "Chez Lucien"),
            (
                ("Steak frites", 2450),
                ("Croque monsieur", 1350),
                ("Moules marinières", 1950),
                ("French onion soup", 950),
                ("Salade niçoise", 1450),
                ("Crème brûlée", 795),
                ("Baguette", 395),
            ),
        ),
        "American": (
            ("Liberty Diner", "Smokehouse 41", "Blue Plate Grill"),
            (
                ("Cheeseburger and fries", 1595),
                ("Pulled pork sandwich", 1495),
                ("Buffalo wings (10)", 1395),
                ("Mac and cheese", 1195),
                ("Cobb salad", 1395),
                ("Brownie", 495),
                ("Iced tea", 350),
            ),
        ),
    }
)
_GENERIC = (
    ("Corner Bistro", "Main Street Kitchen", "The Daily Plate"),
    (
        ("Cheeseburger and fries", 1595),
        ("Grilled chicken sandwich", 1450),
        ("Cobb salad", 1395),
        ("Mac and cheese", 1195),
        ("Tomato soup", 795),
        ("Chocolate chip cookie", 350),
        ("Lemonade", 395),
    ),
)

# German menu names of the CUISINES dishes (the rest read the same in German), for a de_DE persona.
GERMAN_DISHES: dict[str, str] = {
    "Pad thai with chicken": "Pad Thai mit Hähnchen",
    "Green curry with tofu": "Grünes Curry mit Tofu",
    "Tom yum soup": "Tom-Yum-Suppe",
    "Fresh rolls": "Sommerrollen",
    "Sticky rice with mango": "Klebreis mit Mango",
    "Thai iced tea": "Thai-Eistee",
    "Veggie combo for one": "Vegetarische Platte für eine Person",
    "Extra injera": "Extra Injera",
    "Ethiopian coffee": "Äthiopischer Kaffee",
    "Mushroom risotto": "Pilzrisotto",
    "Garlic bread": "Knoblauchbrot",
    "Lasagna bolognese": "Lasagne Bolognese",
    "Margherita pizza": "Pizza Margherita",
    "Caesar salad": "Caesar Salad",
    "Chicken enchiladas": "Enchiladas mit Hähnchen",
    "Chips and guacamole": "Nachos mit Guacamole",
    "Veggie quesadilla": "Gemüse-Quesadilla",
    "Salmon nigiri (2)": "Lachs-Nigiri (2)",
    "Spicy tuna roll": "Spicy Tuna Roll",
    "Chicken katsu curry": "Chicken-Katsu-Curry",
    "Miso soup": "Misosuppe",
    "Veggie udon": "Gemüse-Udon",
    "Garlic naan": "Knoblauch-Naan",
    "Vegetable samosas (2)": "Gemüse-Samosas (2)",
    "Basmati rice": "Basmatireis",
    "Lamb rogan josh": "Lamm Rogan Josh",
    "Spring rolls (2)": "Frühlingsrollen (2)",
    "Vietnamese iced coffee": "Vietnamesischer Eiskaffee",
    "Lemongrass tofu": "Tofu mit Zitronengras",
    "Chicken souvlaki plate": "Souvlaki-Teller mit Hähnchen",
    "Greek salad": "Bauernsalat",
    "Falafel wrap": "Falafel-Wrap",
    "Hummus and pita": "Hummus mit Pita",
    "Bulgogi plate": "Bulgogi-Teller",
    "Korean fried chicken": "Koreanisches Brathähnchen",
    "Chicken shawarma plate": "Schawarma-Teller mit Hähnchen",
    "Falafel plate": "Falafel-Teller",
    "Mixed grill": "Grillteller",
    "Lentil soup": "Linsensuppe",
    "Kung pao chicken": "Kung-Pao-Hähnchen",
    "Beef chow fun": "Gebratene Reisnudeln mit Rind",
    "Dan dan noodles": "Dan-Dan-Nudeln",
    "Pork dumplings (8)": "Teigtaschen mit Schwein (8)",
    "Scallion pancake": "Frühlingszwiebel-Pfannkuchen",
    "Hot and sour soup": "Sauer-scharf-Suppe",
    "Vegetable fried rice": "Gebratener Reis mit Gemüse",
    "Köfte plate": "Köfte-Teller",
    "Adana kebab": "Adana Kebap",
    "Iskender kebab": "Iskender Kebap",
    "Meze platter": "Meze-Platte",
    "Schnitzel with potato salad": "Schnitzel mit Kartoffelsalat",
    "Currywurst and fries": "Currywurst mit Pommes",
    "Fish and chips": "Fish and Chips",
    "French onion soup": "Französische Zwiebelsuppe",
    "Cheeseburger and fries": "Cheeseburger mit Pommes",
    "Pulled pork sandwich": "Pulled-Pork-Sandwich",
    "Buffalo wings (10)": "Chicken Wings (10)",
    "Mac and cheese": "Mac and Cheese",
    "Iced tea": "Eistee",
    "Grilled chicken sandwich": "Sandwich mit gegrilltem Hähnchen",
    "Tomato soup": "Tomatensuppe",
    "Chocolate chip cookie": "Schoko-Cookie",
    "Lemonade": "Limonade",
}
_GENERIC_BY_LOCALE = {
    "en_GB": (("The Corner Kitchen", "High Street Canteen", "The Daily Plate"), _GENERIC[1]),
    "de_DE": (("Bistro am Eck", "Kantine am Markt", "Mittagstisch Mahlzeit"), _GENERIC[1]),
}

# (US name, metric name, price cents)
GROCERIES: list[tuple[str, str, int]] = [
    ("Bananas (bunch)", "Bananas (bunch)", 189),
    ("Organic baby spinach 5 oz", "Organic baby spinach 150 g", 449),
    ("Hass avocados (4)", "Hass avocados (4)", 599),
    ("Gala apples 3 lb", "Gala apples 1.5 kg", 549),
    ("Yellow onions 3 lb", "Brown onions 1.5 kg", 399),
    ("Garlic (3 heads)", "Garlic (3 bulbs)", 249),
    ("Roma tomatoes 1 lb", "Plum tomatoes 500 g", 229),
    ("Broccoli crowns", "Broccoli", 299),
    ("Carrots 2 lb", "Carrots 1 kg", 249),
    ("Lemons (4)", "Lemons (4)", 316),
    ("Limes (5)", "Limes (5)", 250),
    ("Russet potatoes 5 lb", "Potatoes 2.5 kg", 549),
    ("Sweet potatoes 2 lb", "Sweet potatoes 1 kg", 398),
    ("Cilantro bunch", "Coriander bunch", 129),
    ("Blueberries 1 pint", "Blueberries 300 g", 499),
    ("Strawberries 1 lb", "Strawberries 400 g", 449),
    ("Oat milk 64 oz", "Oat drink 1 l", 479),
    ("Whole milk 1 gal", "Whole milk 2 l", 469),
    ("Greek yogurt 32 oz", "Greek yoghurt 1 kg", 649),
    ("Large eggs (dozen)", "Free-range eggs (12)", 429),
    ("Unsalted butter 1 lb", "Unsalted butter 250 g", 549),
    ("Sharp cheddar 8 oz", "Mature cheddar 250 g", 449),
    ("Parmesan wedge", "Parmesan wedge", 799),
    ("Firm tofu 14 oz", "Firm tofu 400 g", 249),
    ("Chicken thighs 2 lb", "Chicken thighs 1 kg", 899),
    ("Ground turkey 1 lb", "Turkey mince 500 g", 649),
    ("Salmon fillet 1 lb", "Salmon fillets 500 g", 1299),
    ("Sourdough loaf", "Sourdough loaf", 599),
    ("Whole wheat bread", "Wholemeal bread", 449),
    ("Flour tortillas (10)", "Flour tortillas (8)", 379),
    ("Jasmine rice 2 lb", "Jasmine rice 1 kg", 449),
    ("Spaghetti 1 lb", "Spaghetti 500 g", 199),
    ("Rolled oats 42 oz", "Porridge oats 1 kg", 579),
    ("Black beans 15 oz", "Black beans 400 g", 139),
    ("Chickpeas 15 oz", "Chickpeas 400 g", 139),
    ("Crushed tomatoes 28 oz", "Chopped tomatoes 400 g", 299),
    ("Peanut butter 16 oz", "Peanut butter 340 g", 399),
    ("Extra virgin olive oil 500 ml", "Extra virgin olive oil 500 ml", 999),
    ("Ground coffee 12 oz", "Ground coffee 227 g", 1099),
    ("Green tea (20 bags)", "Green tea (20 bags)", 449),
    ("Sparkling water 8-pack", "Sparkling water 6 x 1 l", 599),
    ("Orange juice 52 oz", "Orange juice 1.5 l", 549),
    ("Tortilla chips", "Tortilla chips", 449),
    ("Hummus 10 oz", "Houmous 300 g", 449),
    ("Dark chocolate bar", "Dark chocolate bar", 349),
    ("Frozen peas 16 oz", "Frozen peas 1 kg", 229),
    ("Frozen pizza", "Frozen pizza", 799),
    ("Vanilla ice cream 1.5 qt", "Vanilla ice cream 1 l", 599),
    ("Granola 12 oz", "Granola 500 g", 549),
    ("Honey 12 oz", "Honey 340 g", 699),
    ("Soy sauce", "Soy sauce", 349),
    ("Paper towels (6 rolls)", "Kitchen roll (4 rolls)", 1299),
    ("Dish soap", "Washing-up liquid", 399),
    ("Laundry detergent", "Laundry detergent", 1399),
    ("Toilet paper (12 rolls)", "Toilet roll (12 rolls)", 1499),
    ("Trash bags (40)", "Bin bags (40)", 1099),
]
# German shelf names of the GROCERIES items (by their metric name).
GERMAN_GROCERIES: dict[str, str] = {
    "Bananas (bunch)": "Bananen (Bund)",
    "Organic baby spinach 150 g": "Bio-Babyspinat 150 g",
    "Hass avocados (4)": "Avocados (4 Stück)",
    "Gala apples 1.5 kg": "Äpfel Gala 1,5 kg",
    "Brown onions 1.5 kg": "Zwiebeln 1,5 kg",
    "Garlic (3 bulbs)": "Knoblauch (3 Knollen)",
    "Plum tomatoes 500 g": "Strauchtomaten 500 g",
    "Broccoli": "Brokkoli",
    "Carrots 1 kg": "Möhren 1 kg",
    "Lemons (4)": "Zitronen (4 Stück)",
    "Limes (5)": "Limetten (5 Stück)",
    "Potatoes 2.5 kg": "Kartoffeln festkochend 2,5 kg",
    "Sweet potatoes 1 kg": "Süßkartoffeln 1 kg",
    "Coriander bunch": "Koriander (Bund)",
    "Blueberries 300 g": "Heidelbeeren 300 g",
    "Strawberries 400 g": "Erdbeeren 400 g",
    "Oat drink 1 l": "Haferdrink 1 l",
    "Whole milk 2 l": "Vollmilch 3,5 % 2 l",
    "Greek yoghurt 1 kg": "Griechischer Joghurt 1 kg",
    "Free-range eggs (12)": "Freilandeier (10 Stück)",
    "Unsalted butter 250 g": "Süßrahmbutter 250 g",
    "Mature cheddar 250 g": "Bergkäse 250 g",
    "Parmesan wedge": "Parmigiano Reggiano Stück",
    "Firm tofu 400 g": "Tofu natur 400 g",
    "Chicken thighs 1 kg": "Hähnchenschenkel 1 kg",
    "Turkey mince 500 g": "Putenhack 500 g",
    "Salmon fillets 500 g": "Lachsfilet 500 g",
    "Sourdough loaf": "Sauerteigbrot",
    "Wholemeal bread": "Vollkornbrot",
    "Flour tortillas (8)": "Weizentortillas (8 Stück)",
    "Jasmine rice 1 kg": "Jasminreis 1 kg",
    "Spaghetti 500 g": "Spaghetti 500 g",
    "Porridge oats 1 kg": "Haferflocken 1 kg",
    "Black beans 400 g": "Schwarze Bohnen 400 g",
    "Chickpeas 400 g": "Kichererbsen 400 g",
    "Chopped tomatoes 400 g": "Gehackte Tomaten 400 g",
    "Peanut butter 340 g": "Erdnussbutter 340 g",
    "Extra virgin olive oil 500 ml": "Natives Olivenöl extra 500 ml",
    "Ground coffee 227 g": "Röstkaffee gemahlen 500 g",
    "Green tea (20 bags)": "Grüner Tee (20 Beutel)",
    "Sparkling water 6 x 1 l": "Mineralwasser spritzig 6 x 1 l",
    "Orange juice 1.5 l": "Orangensaft 1,5 l",
    "Tortilla chips": "Tortilla-Chips",
    "Houmous 300 g": "Hummus 300 g",
    "Dark chocolate bar": "Zartbitterschokolade 100 g",
    "Frozen peas 1 kg": "Erbsen tiefgekühlt 1 kg",
    "Frozen pizza": "Tiefkühlpizza",
    "Vanilla ice cream 1 l": "Vanilleeis 1 l",
    "Granola 500 g": "Knuspermüsli 500 g",
    "Honey 340 g": "Blütenhonig 500 g",
    "Soy sauce": "Sojasauce",
    "Kitchen roll (4 rolls)": "Küchenrolle (4 Rollen)",
    "Washing-up liquid": "Spülmittel",
    "Laundry detergent": "Waschmittel",
    "Toilet roll (12 rolls)": "Toilettenpapier (10 Rollen)",
    "Bin bags (40)": "Müllbeutel (40 Stück)",
}
# How many days one unit of a GROCERIES item lasts one person (by US name); a household divides it.
LASTS_DAYS: dict[str, int] = {
    "Bananas (bunch)": 6,
    "Organic baby spinach 5 oz": 6,
    "Hass avocados (4)": 8,
    "Gala apples 3 lb": 10,
    "Yellow onions 3 lb": 21,
    "Garlic (3 heads)": 30,
    "Roma tomatoes 1 lb": 7,
    "Broccoli crowns": 7,
    "Carrots 2 lb": 14,
    "Lemons (4)": 14,
    "Limes (5)": 14,
    "Russet potatoes 5 lb": 21,
    "Sweet potatoes 2 lb": 14,
    "Cilantro bunch": 7,
    "Blueberries 1 pint": 6,
    "Strawberries 1 lb": 6,
    "Oat milk 64 oz": 8,
    "Whole milk 1 gal": 8,
    "Greek yogurt 32 oz": 9,
    "Large eggs (dozen)": 14,
    "Unsalted butter 1 lb": 30,
    "Sharp cheddar 8 oz": 14,
    "Parmesan wedge": 35,
    "Firm tofu 14 oz": 10,
    "Chicken thighs 2 lb": 10,
    "Ground turkey 1 lb": 10,
    "Salmon fillet 1 lb": 14,
    "Sourdough loaf": 6,
    "Whole wheat bread": 7,
    "Flour tortillas (10)": 14,
    "Jasmine rice 2 lb": 30,
    "Spaghetti 1 lb": 21,
    "Rolled oats 42 oz": 40,
    "Black beans 15 oz": 14,
    "Chickpeas 15 oz": 14,
    "Crushed tomatoes 28 oz": 14,
    "Peanut butter 16 oz": 30,
    "Extra virgin olive oil 500 ml": 75,
    "Ground coffee 12 oz": 16,
    "Green tea (20 bags)": 21,
    "Sparkling water 8-pack": 7,
    "Orange juice 52 oz": 8,
    "Tortilla chips": 10,
    "Hummus 10 oz": 7,
    "Dark chocolate bar": 10,
    "Frozen peas 16 oz": 30,
    "Frozen pizza": 14,
    "Vanilla ice cream 1.5 qt": 21,
    "Granola 12 oz": 14,
    "Honey 12 oz": 90,
    "Soy sauce": 120,
    "Paper towels (6 rolls)": 45,
    "Dish soap": 45,
    "Laundry detergent": 60,
    "Toilet paper (12 rolls)": 42,
    "Trash bags (40)": 80,
}


class Pantry:
    """What a household has in: each staple runs out ``LASTS_DAYS / household`` days after it was bought, and a
    shop buys what runs out before the next one (so olive oil every two or three months, toilet roll packs
    sized to the household). Draws come from the caller's stream."""

    def __init__(self, r, household: int, locale: str, currency: str, start: dt.date):
        self.r, self.household, self.locale, self.currency = r, max(1, household), locale, currency
        picks = r.sample(range(len(GROCERIES)), 26)
        self.staples = sorted(picks[: 16 + 2 * min(self.household, 4)])
        self.extras = sorted(picks[16 + 2 * min(self.household, 4) :])
        # Start part-way through each staple's life, so the first shops are not one huge basket.
        self.due = {i: start + dt.timedelta(days=r.randint(0, self.lasts(i))) for i in self.staples}

    def lasts(self, i: int) -> int:
        base = LASTS_DAYS.get(GROCERIES[i][0], 14)
        return max(3, round(base / (self.household**0.8)))

    def shop(self, day: dt.date, until_next: int, store: str = "harvest") -> list[dict]:
        """The basket for a shop on ``day`` at Basketful store ``store`` when the next is ``until_next`` days
        away: order items of :mod:`.grocery` (sku, name, size, qty, the store's price)."""
        self.store = store
        items = []
        for i in self.staples:
            if self.due[i] <= day + dt.timedelta(days=until_next):
                life = self.lasts(i)
                qty = max(1, min(4, round(max(until_next, 1) / life)))
                self.due[i] = day + dt.timedelta(days=int(qty * life * self.r.uniform(0.85, 1.2)))
                items.append(self._item(i, qty))
        if self.r.random() < 0.5:
            items.append(self._item(self.extras[self.r.randrange(len(self.extras))], 1))
        if not items:
            items.append(self._item(self.staples[self.r.randrange(len(self.staples))], 1))
        return items

    def _item(self, i: int, qty: int) -> dict:
        """Staple ``i`` as Basketful's catalogue sells it at the current store (:mod:`builder.reference.grocery.catalogue`)."""
        product = basketful.by_staple()[GROCERIES[i][0]]
        return basketful.item(product, self.store, self.locale, self.currency, qty)


# Parcel carriers by the home country (ISO 3166-1 code): the big domestic carriers where they are known for sure,
# else an international express carrier that delivers everywhere (:data:`ANY_CARRIERS`).
CARRIERS = {
    "US": ("UPS", "USPS", "FedEx"),
    "GB": ("Royal Mail", "DPD", "Evri"),
    "DE": ("DHL", "Hermes", "DPD"),
    "JP": ("Yamato Transport", "Sagawa Express", "Japan Post"),
}
ANY_CARRIERS = ("DHL Express",)
_ALNUM = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"


def _digits(r, n: int) -> str:
    return "".join(str(r.randrange(10)) for _ in range(n))


def _tracking(r, carrier: str) -> str:
    """A tracking number in the carrier's usual format."""
    if carrier == "UPS":
        return "1Z" + "".join(r.choice(_ALNUM) for _ in range(6)) + _digits(r, 10)
    if carrier == "USPS":
        return "9400" + _digits(r, 18)
    if carrier == "Royal Mail":
        return "".join(r.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(2)) + _digits(r, 9) + "GB"
    if carrier == "DHL":
        return "00340" + _digits(r, 15)
    if carrier == "DHL Express":
        return _digits(r, 10)  # an express waybill number
    if carrier in ("Yamato Transport", "Sagawa Express", "Japan Post"):
        return _digits(r, 12)  # a domestic Japanese slip number
    return _digits(r, 14 if carrier in ("DPD", "Hermes") else 12 if carrier == "FedEx" else 16)


def spread(r, count: int, days: list[dt.date]) -> list[dt.date]:
    """``count`` dates from ``days`` (sorted), evenly spaced with a random phase, each nudged by up to 2 days."""
    if count <= 0 or not days:
        return []
    step = len(days) / count
    phase = r.random()
    out = []
    for k in range(count):
        idx = int((k + phase) * step) + r.randint(-2, 2)
        out.append(days[min(max(idx, 0), len(days) - 1)])
    return sorted(out)


def _count(sim: Sim, per_month: float) -> int:
    """The whole number of events a ``per_month`` rate gives over the history (rounded half up)."""
    months = (sim.now.date() - sim.start.date()).days / MONTH_DAYS
    return int(per_month * months + 0.5)


def away(sim: Sim) -> set[dt.date]:
    """Days the persona is travelling (depart..return of each trip)."""
    out: set[dt.date] = set()
    for t in (sim.persona.travel.trips or []) if sim.persona.travel else []:
        d = t.depart
        while d <= t.return_:
            out.add(d)
            d += dt.timedelta(days=1)
    return out


def _restaurants(sim: Sim) -> list[tuple[str, str, tuple[tuple[str, int], ...], str]]:
    """(name, cuisine, menu, address) of the persona's cuisine restaurants, two per cuisine (stable per persona)."""
    p = sim.persona
    usual = p.routines.usual_order.restaurant if p.routines.usual_order else None
    listed = dining.home_restaurants(sim, exclude=usual)  # TableTime's catalogue (world/dining.py)
    r = sim.rng("orders/restaurants")
    fake = sim.faker("orders/restaurants/addresses")
    city = p.identity.address
    out = []
    for n, cuisine in enumerate(p.preferences.cuisines or ["American"]):
        chosen = listed[n][1] if listed is not None else []
        if chosen:
            out.extend((x["name"], x["cuisine"], CUISINES.get(x["cuisine"], _GENERIC)[1], x["address"]) for x in chosen)
            continue
        # A city or cuisine TableTime lacks: the world's own names (draws only for these cuisines).
        names, menu = CUISINES.get(cuisine.strip().title(), _GENERIC_BY_LOCALE.get(p.bank, _GENERIC))
        for name in r.sample(list(names), 2):
            if name != usual and all(name != x[0] for x in out):
                out.append((name, cuisine, menu, street_address(fake, city)))
    return out


def _at(day: dt.date, r, start: tuple[int, int], end: tuple[int, int]) -> dt.datetime:
    """A random minute of ``day`` between ``start`` and ``end`` (hour, minute)."""
    lo, hi = start[0] * 60 + start[1], end[0] * 60 + end[1]
    m = r.randint(lo, hi)
    return dt.datetime.combine(day, dt.time(m // 60, m % 60))


def _clock(value, default: int) -> int:
    try:
        return int(str(value).split(":")[0])
    except (TypeError, ValueError):
        return default


def awake(sim: Sim, r, at: dt.datetime, latest: dt.datetime | None = None) -> dt.datetime:
    """``at`` moved to a waking hour of its day (after wake-up + 1 h, before bedtime) unless the persona is a
    night owl; a day earlier if that would pass ``latest``. Never before the history's start."""
    ro = sim.persona.routines
    if ro.night_owl:
        return at
    lo = max(7, _clock(ro.wake, 7) + 1)
    hi = min(22, max(lo + 1, _clock(ro.bedtime, 23) - 1))
    if lo <= at.hour < hi:
        return at
    moved = dt.datetime.combine(at.date(), dt.time(r.randint(lo, hi - 1), r.randint(0, 59)))
    if latest is not None and moved > latest:
        moved -= dt.timedelta(days=1)
    if moved > sim.now:
        moved -= dt.timedelta(days=1)
    return max(moved, dt.datetime.combine(sim.start.date(), dt.time(lo, 0)))


def _new_id(r, prefix: str, digits: int, used: set[str]) -> str:
    while True:
        value = prefix + _digits(r, digits)
        if value not in used and value[len(prefix)] != "0":
            used.add(value)
            return value


@world_step(
    rank=50,
    writes=(
        "food_order",
        "grocery_order",
        "retail_order",
        "retail_delivery",
        "restaurant_booking",
        "ride",
        "card_purchase",
        "ledger",
        "merchants",
    ),
)
def simulate_orders(sim: Sim) -> None:
    """Append food, grocery and retail orders, restaurant bookings with their meals, and local rides."""
    p = sim.persona
    ro = p.routines
    account = sim.card()
    home = p.identity.address
    home_line = format_address(home)
    zone_name = p.timezone
    gone = away(sim)
    last = sim.now.date() - dt.timedelta(days=1)
    home_days = [d for d in sim.days(end=last) if d not in gone]
    restaurants = _restaurants(sim)
    ids: set[str] = set()
    squeeze = budget(sim).squeeze  # 1.0 unless the spec's pay cannot carry its routines

    # Food delivery: DashBite's restaurants and dishes (world/delivery.py, builder/reference/delivery).
    r = sim.rng("orders/food")
    dash = dashbite_catalogue.home_catalogue(p)
    places = dashbite.favourites(sim, dash)
    basket = sim.rng("delivery/orders/items")
    usual = usual_split(p)
    usual_place = next((x for x in dash if x["usual"]), None)
    tp = p.preferences.tipping_percent
    for n, day in enumerate(spread(r, _count(sim, ro.food_delivery_per_month * squeeze), home_days)):
        lunch = day.weekday() >= 5 and r.random() < 0.2
        placed = _at(day, r, (11, 30), (13, 15)) if lunch else _at(day, r, (17, 30), (21, 30))
        if usual and usual_place and (r.random() < 0.5 or not places):
            items, subtotal, fee, service, tip, total = usual
            place, is_usual = usual_place, True
            dish = {dashbite_catalogue.dish_name(d, p.bank): d["id"] for d in place["menu"]}
            items = [
                {
                    "dish_id": dish[x["name"]],
                    "name": x["name"],
                    "qty": x["qty"],
                    "options": [],
                    "option_ids": [],
                    "price_cents": x["price_cents"],
                }
                for x in items
            ]
        else:
            place = places[r.randrange(len(places))]
            items = dashbite.draw_items(basket, place, p.bank)
            subtotal = sum(x["qty"] * x["price_cents"] for x in items)
            # The basket reaches the minimum: no small-order fee.
            f = dashbite_catalogue.fees(place, subtotal, p.finances.currency)
            fee, service = f["delivery_fee_cents"], f["service_fee_cents"]
            tip = floor_unit(subtotal * tp // 100, p.finances.currency)
            total = subtotal + fee + service + tip
            is_usual = False
        restaurant, cuisine = place["name"], place["cuisine"]
        order_id = _new_id(r, "DB-", 8, ids)
        delivered = placed + dt.timedelta(minutes=r.randint(28, 55))
        data = {
            "order_id": order_id,
            "provider": DASHBITE[0],
            "restaurant": restaurant,
            "cuisine": cuisine,
            "restaurant_id": place["id"],
            "restaurant_address": place["address"],
            "usual": is_usual,
            "items": items,
            "subtotal_cents": subtotal,
            "delivery_fee_cents": fee,
            "service_fee_cents": service,
            "fees_cents": fee + service,
            "tip_cents": tip,
            "total_cents": total,
            "delivery_address": home_line,
            "placed_local": iso(from_local(sim, placed), zone_name),
            "delivered_local": iso(from_local(sim, delivered), zone_name),
            "account": account,
            "site_url": DASHBITE[1],
            "site_title": DASHBITE[0],
        }
        sim.event(
            "food_order",
            placed,
            data,
            [
                Charge(
                    account,
                    -total,
                    card_description(sim, account, f"{DASHBITE[0].upper()}*{restaurant}"),
                    DASHBITE[0],
                    "restaurants",
                )
            ],
            ("food", n),
        )

    # Grocery delivery: only when the spec says the persona has groceries delivered (else finance.py's in-store shops).
    r = sim.rng("orders/grocery")
    total_count = _count(sim, ro.grocery_orders_per_month) if ro.grocery_delivery else 0
    pantry = Pantry(sim.rng("orders/grocery/pantry"), household_size(p), p.bank, p.finances.currency, sim.start.date())
    if total_count:
        weekly = [d for d in home_days if sim.weekday(d) == ro.groceries_day]
        mains = (
            weekly
            if total_count >= len(weekly)
            else [weekly[int((k + 0.5) * len(weekly) / total_count)] for k in range(total_count)]
        )
        taken = {d + dt.timedelta(days=k) for d in mains for k in (-1, 0, 1)}
        extra = spread(r, total_count - len(mains), [d for d in home_days if d not in taken])
        grocery_days = sorted(mains + extra)
    else:
        grocery_days = []
    stores, treats = sim.rng("orders/grocery/store"), sim.rng("orders/grocery/extras")
    chains = {c["key"]: c["name"] for c in basketful.stores(p.bank)}
    for n, day in enumerate(grocery_days):
        eve = day - dt.timedelta(days=1)
        if r.random() < 0.55 and eve >= sim.start.date() and eve not in gone:
            placed = _at(eve, r, (19, 0), (22, 30))
            window = r.choice([9, 10, 11, 12, 14, 16])
        else:
            placed = _at(day, r, (7, 30), (9, 45))
            window = r.choice([12, 14, 16, 18])
        following = grocery_days[n + 1] if n + 1 < len(grocery_days) else day + dt.timedelta(days=7)
        store = grocery.pick_store(stores, sim.seed, p.bank)  # Basketful's stores and catalogue (world/grocery.py)
        items = pantry.shop(day, max(1, (following - day).days), store)
        extra_item = grocery.treat(treats)
        if extra_item and all(x["sku"] != extra_item["id"] for x in items):
            items.append(basketful.item(extra_item, store, p.bank, p.finances.currency))
        subtotal = sum(x["qty"] * x["price_cents"] for x in items)
        f = basketful.fees(subtotal, tp, currency=p.finances.currency)
        delivery, service, tip = f["delivery_fee_cents"], f["service_fee_cents"], f["tip_cents"]
        total = subtotal + delivery + service + tip
        order_id = _new_id(r, "BF", 9, ids)
        start = dt.datetime.combine(day, dt.time(window, 0))
        data = {
            "order_id": order_id,
            "provider": BASKETFUL[0],
            "store_key": store,
            "store": chains[store],
            "items": items,
            "item_count": sum(x["qty"] for x in items),
            "subtotal_cents": subtotal,
            "delivery_fee_cents": delivery,
            "service_fee_cents": service,
            "fees_cents": delivery + service,
            "tip_cents": tip,
            "total_cents": total,
            "delivery_address": home_line,
            "placed_local": iso(from_local(sim, placed), zone_name),
            "delivery_window_start": iso(from_local(sim, start), zone_name),
            "delivery_window_end": iso(from_local(sim, start + dt.timedelta(hours=2)), zone_name),
            "account": account,
            "site_url": BASKETFUL[1],
            "site_title": BASKETFUL[0],
        }
        sim.event(
            "grocery_order",
            placed,
            data,
            [
                Charge(
                    account,
                    -total,
                    card_description(sim, account, f"{BASKETFUL[0].upper()}*{order_id[2:]}"),
                    BASKETFUL[0],
                    "groceries",
                )
            ],
            ("grocery", n),
        )

    # Online shopping.
    r = sim.rng("orders/retail")
    picks = sim.rng("orders/retail/items")
    carriers = CARRIERS.get(p.identity.address.country.upper(), ANY_CARRIERS)
    brands = list(p.preferences.brands)
    all_days = list(sim.days(end=last))
    order_days = spread(r, _count(sim, ro.online_orders_per_month * squeeze), all_days)
    in_transit = 0
    for n, day in enumerate(order_days):
        placed = _at(day, r, (8, 0), (22, 45))
        items = []
        for _ in range(r.choices([1, 2, 3], [6, 3, 1])[0]):
            it = retail.draw_item(picks, brands, p.bank, p.finances.currency)  # Shopwell's catalogue (world/retail.py)
            if any(x["product_id"] == it["product_id"] for x in items):
                continue
            items.append(it)
        subtotal = sum(x["qty"] * x["price_cents"] for x in items)
        ship_days, transit_days = r.randint(1, 2), r.randint(2, 6)
        shipped = _at(day + dt.timedelta(days=ship_days), r, (6, 0), (20, 0))
        delivered = _at(day + dt.timedelta(days=ship_days + transit_days), r, (10, 0), (19, 30))
        if delivered > sim.now and in_transit >= 2:  # at most two parcels on the way: the rest came fast
            shipped = _at(day + dt.timedelta(days=1), r, (6, 0), (9, 0))
            delivered = _at(day + dt.timedelta(days=3), r, (10, 0), (19, 30))
        elif delivered <= sim.now and in_transit == 0 and n == len(order_days) - 1:  # the last one is on its way
            delivered = _at(sim.now.date() + dt.timedelta(days=r.randint(1, 3)), r, (10, 0), (19, 30))
            shipped = min(shipped, sim.now - dt.timedelta(hours=r.randint(2, 20)))
        in_transit += delivered > sim.now
        times = (placed, shipped, delivered)
        _shopwell_order(sim, r, ids, ("retail", n), times, items, subtotal, account, home_line, zone_name, carriers)

    # Birthday presents: a Shopwell order sent to a close person's address, arriving before the birthday.
    for c in p.contacts:
        if not (
            c.birthday
            and c.address
            and c.relationship in ("parent", "partner", "spouse", "sibling", "child")
            and (c.closeness or 3) >= 4
        ):
            continue
        for year in range(sim.start.year, sim.now.year + 1):
            g = sim.rng(f"orders/gifts/{c.name}/{year}")
            try:
                birthday = c.birthday.replace(year=year)
            except ValueError:
                birthday = dt.date(year, 2, 28)
            day = birthday - dt.timedelta(days=g.randint(6, 12))
            wanted = g.random() < 0.6
            gift = retail.draw_gift(sim.rng(f"orders/gifts/{c.name}/{year}/item"), p.bank, p.finances.currency)
            name, price = gift["name"], gift["price_cents"]
            placed = _at(day, g, (19, 0), (21, 45))
            shipped = _at(day + dt.timedelta(days=1), g, (6, 0), (18, 0))
            delivered = _at(day + dt.timedelta(days=g.randint(3, 5)), g, (10, 0), (18, 30))
            if not wanted or placed < sim.start or delivered > sim.now or day in gone:
                continue
            extra = {"gift_for": c.name, "gift_birthday": birthday.isoformat()}
            times = (placed, shipped, delivered)
            to = format_address(c.address)
            key = ("gift", c.name, year)
            _shopwell_order(sim, g, ids, key, times, [gift], price, account, to, zone_name, carriers, extra=extra)

    # Restaurant bookings and the meals.
    r = sim.rng("orders/dining")
    fake = sim.faker("orders/dining/addresses")
    merchants = {m.name: m for m in sim.merchants}
    places = []
    for name, cuisine, _, address in restaurants:
        if name not in merchants:
            m = Merchant(derived_id(sim.seed, "merchant", name), name, "restaurants", home.city if home else "")
            sim.merchants.append(m)
            merchants[name] = m
        places.append((merchants[name], cuisine, address))
    here = {x["name"]: x for x in dining.at_home(p)}
    listed = [here[n] for n, *_ in restaurants if n in here]
    if listed:
        # TableTime lists every restaurant booked: as many more of its home-city restaurants as the city has
        # other restaurant merchants (those keep their walk-in card purchases), so the places number the same.
        extra = sum(m.category == "restaurants" and all(m is not x[0] for x in places) for m in sim.merchants)
        for x in dining.other_restaurants(sim, listed, extra):
            if x["name"] not in merchants:
                merchants[x["name"]] = Merchant(
                    derived_id(sim.seed, "merchant", x["name"]), x["name"], "restaurants", home.city
                )
                sim.merchants.append(merchants[x["name"]])
            places.append((merchants[x["name"]], None, x["address"]))
    else:
        for m in sim.merchants:
            if m.category == "restaurants" and all(m is not x[0] for x in places):
                places.append((m, None, street_address(fake, home)))
    friends = [
        c
        for c in p.contacts
        if c.relationship in ("partner", "spouse", "friend", "sibling", "roommate") and (c.closeness or 0) >= 3
    ]
    upcoming_days = [
        d
        for d in sim.days(sim.now.date() + dt.timedelta(days=2), sim.now.date() + dt.timedelta(days=12))
        if d not in gone
    ]
    dinner_days = spread(
        r, _count(sim, ro.dining_out_per_month * squeeze), [d for d in home_days if d > sim.start.date()]
    )
    if upcoming_days and ro.dining_out_per_month:
        dinner_days += sorted(r.sample(upcoming_days, min(len(upcoming_days), 1 + (r.random() < 0.6))))
    dinners: dict[dt.date, tuple[str, dt.datetime]] = {}
    bills: list[tuple] = []  # each dinner's bill, paid below once it is known who pays
    for n, day in enumerate(dinner_days):
        weights = [3 if cuisine else 1 for _, cuisine, _ in places]
        merchant, cuisine, address = r.choices(places, weights)[0]
        brunch = day.weekday() >= 5 and r.random() < 0.2
        reserved = _at(day, r, (10, 30), (12, 0)) if brunch else _at(day, r, (17, 45), (20, 30))
        reserved = reserved.replace(minute=reserved.minute // 15 * 15)
        companions = [c.name for c in r.sample(friends, min(len(friends), r.choices([0, 1, 2, 3], [1, 5, 3, 1])[0]))]
        party = 1 + len(companions)
        booked = reserved - dt.timedelta(days=r.randint(1, 10), hours=r.randint(0, 8), minutes=r.randint(0, 59))
        booked = max(booked, sim.start + dt.timedelta(hours=8))
        if booked > sim.now:
            booked = sim.now - dt.timedelta(hours=r.randint(12, 60))
        booked = awake(sim, r, booked, reserved - dt.timedelta(hours=12))
        booking_id = _new_id(r, "TT", 8, ids)
        booking = sim.event(
            "restaurant_booking",
            booked,
            {
                "booking_id": booking_id,
                "provider": TABLETIME[0],
                "restaurant": merchant.name,
                "merchant_id": merchant.id,
                "cuisine": cuisine,
                "address": address,
                "party_size": party,
                "companions": companions,
                "reservation_local": iso(from_local(sim, reserved), zone_name),
                "booked_local": iso(from_local(sim, booked), zone_name),
                "special_request": dining.special_request(sim, n),
                "site_url": TABLETIME[1],
                "site_title": TABLETIME[0],
            },
            key=("dining", n),
        )
        per_head = prices.figure(r.randrange(2200, 5200, 50), p.finances.currency)
        pays_all = party > 1 and r.random() < 0.35
        subtotal = per_head * (party if pays_all else 1)
        tip = floor_unit(subtotal * tp // 100, p.finances.currency)
        paid = reserved + dt.timedelta(minutes=r.randint(70, 110))
        share = per_head + floor_unit(per_head * tp // 100, p.finances.currency)
        bills.append((n, booking, reserved, paid, merchant, subtotal, tip, party, pays_all, share))
        dinners[day] = (address, reserved)
    # A friend who asks to be paid back paid the whole table: the latest dinners of the last REQUEST_DAYS with a
    # companion who uses chat and the bank (as many as builder/world/requests.py asks about) are theirs to pay, and
    # the persona's card pays no part of them. Every other bill is the persona's: their share, or the table's.
    payers = {c.name: c for c in p.contacts if "chat" in (c.apps or []) and "bank" in (c.apps or []) and c.phone}
    theirs: dict[int, str] = {}
    for n, booking, reserved, *_ in sorted(bills, key=lambda b: b[2], reverse=True):
        if len(theirs) == REQUESTS_OPEN:
            break
        payer = next((name for name in booking.data["companions"] if name in payers), None)
        if payer and sim.now - dt.timedelta(days=REQUEST_DAYS) <= reserved <= sim.now - dt.timedelta(hours=3):
            theirs[n] = payer
    for n, booking, reserved, paid, merchant, subtotal, tip, party, pays_all, share in bills:
        if n in theirs:
            booking.data["paid_by"] = theirs[n]
            booking.data["share_cents"] = share
            continue
        purchase(
            sim,
            paid,
            merchant,
            subtotal + tip,
            ("dining", n),
            restaurant_booking=booking.data["booking_id"],
            party_size=party,
            paid_for="table" if pays_all else "self",
            subtotal_cents=subtotal,
            tip_cents=tip,
        )

    # Local rides.
    r = sim.rng("orders/rides")
    fake = sim.people("orders/rides")
    office = format_address(p.work.office_address) if p.work and p.work.office_address else None
    # Not a roommate, nor anyone else living at the persona's own address (a spouse, a child): no ride goes from home
    # to home.
    people = [
        (c.name, format_address(c.address))
        for c in p.contacts
        if c.address and c.relationship != "roommate" and format_address(c.address) != home_line
    ]
    for n, day in enumerate(spread(r, _count(sim, ro.rides_per_month * squeeze), home_days)):
        contact = None
        if day in dinners and r.random() < 0.8:
            address, reserved = dinners[day]
            if r.random() < 0.5:
                at, a, b, why = reserved - dt.timedelta(minutes=r.randint(20, 30)), home_line, address, "dinner"
            else:
                at, a, b, why = reserved + dt.timedelta(minutes=r.randint(115, 150)), address, home_line, "dinner"
        elif office and sim.weekday(day) in p.work.office_days and r.random() < 0.4:
            if r.random() < 0.5:
                at, a, b, why = _at(day, r, (7, 40), (9, 0)), home_line, office, "work"
            else:
                at, a, b, why = _at(day, r, (17, 30), (20, 0)), office, home_line, "work"
        elif people:
            contact, address = people[r.randrange(len(people))]
            if r.random() < 0.5:
                at, a, b, why = _at(day, r, (17, 0), (20, 30)), home_line, address, "visit"
            else:
                at, a, b, why = _at(day, r, (21, 30), (23, 45)), address, home_line, "visit"
        else:
            place = places[r.randrange(len(places))]
            at, a, b, why = _at(day, r, (18, 0), (20, 0)), home_line, place[2], "dinner"
        if at > sim.now:
            continue
        if contact is not None:
            # A ride goes across town, never to a contact in another city: such a visit goes to a contact of
            # the home city instead (else to a place), chosen by index so that no draw of ``r`` shifts.
            from ..reference import geo

            home_city = p.identity.address.city if p.identity.address else None
            local = [pc for pc in people if geo.city_of(pc[1], home_city) == geo.city_of(home_line, home_city)]
            if geo.city_of(address, home_city) != geo.city_of(home_line, home_city):
                k = n % (len(local) or len(places))
                contact, address = local[k] if local else (None, places[k][2])
                why = "visit" if local else "dinner"
                a, b = (home_line, address) if a == home_line else (address, home_line)
        ride(
            sim,
            r,
            fake,
            from_local(sim, at),
            r.randint(9, 26),
            a,
            b,
            zone_name,
            ("local", n),
            None,
            {"purpose": why, "contact": contact},
        )

    # A rideshare commuter rides to and from the office on most office days (stream orders/rides/commute).
    commute = ro.commute
    if commute and commute.mode == "rideshare" and office and p.work:
        r = sim.rng("orders/rides/commute")
        fake = sim.people("orders/rides/commute")
        dh, dm = (int(x) for x in str(commute.depart).split(":")[:2])
        for n, day in enumerate(d for d in home_days if sim.weekday(d) in p.work.office_days):
            go, back, late = r.random(), r.random(), r.randint(-10, 15)
            home_at = dt.datetime.combine(day, dt.time(17, 30)) + dt.timedelta(minutes=r.randint(0, 90))
            minutes = max(8, commute.minutes + r.randint(-4, 6))
            leave = dt.datetime.combine(day, dt.time(dh, dm)) + dt.timedelta(minutes=late)
            if go < 0.75 and leave <= sim.now:
                ride(
                    sim,
                    r,
                    fake,
                    from_local(sim, leave),
                    minutes,
                    home_line,
                    office,
                    zone_name,
                    ("commute", n, 0),
                    None,
                    {"purpose": "work", "contact": None},
                )
            if back < 0.6 and home_at <= sim.now:
                ride(
                    sim,
                    r,
                    fake,
                    from_local(sim, home_at),
                    minutes,
                    office,
                    home_line,
                    zone_name,
                    ("commute", n, 1),
                    None,
                    {"purpose": "work", "contact": None},
                )


# --- what this domain enters in the calendar (the calendar channel, builder/world/calendar.py) -----


@world_step(rank=62, reads=("restaurant_booking",), writes=("calendar_event",))
def calendar_tables(sim: Sim) -> None:
    """Enter every restaurant booking in the calendar (90 minutes from the reservation time)."""
    for b in sim.of_kind("restaurant_booking"):
        d = b.data
        start = reservation_time(sim, b)
        name = first(d, "restaurant", "merchant", "name", default="Restaurant")
        w = words(sim)
        meal = "lunch" if start.hour < 15 else "dinner"
        names = first(d, "companions", "with", "guests", default=[]) or []
        people = [person(sim, n) for n in names if isinstance(n, str)]
        party = d.get("party_size")
        conf = first(d, "confirmation", "confirmation_number", "booking_ref")
        desc = "\n".join(
            x
            for x in [w["table"].format(n=party) if party else "", w["confirmation"].format(code=conf) if conf else ""]
            if x
        )
        add_timed(
            sim,
            start,
            90,
            title=w[meal].format(name=name),
            location=first(d, "address", default=name),
            attendees=people,
            source="restaurant",
            ref=b.id,
            description=desc,
            key=("restaurant", b.id),
        )


def _shopwell_order(
    sim: Sim,
    r,
    ids: set,
    key: tuple,
    times: tuple[dt.datetime, dt.datetime, dt.datetime],
    items: list[dict],
    subtotal: int,
    account: str,
    home_line: str,
    zone_name: str,
    carriers: list,
    category: str = "shopping",
    extra: dict | None = None,
) -> None:
    """One Shopwell order of ``items`` (:mod:`world.retail` items) placed, shipped and delivered at ``times`` (naive
    local) to ``home_line`` (an address line): draws its carrier, order id (unique in ``ids``, which it joins) and
    tracking number from ``r``, and appends its ``retail_order`` (the card charge of ``subtotal`` plus shipping, in
    cents, bank ``category``; ``extra`` keys added to its data) and ``retail_delivery`` events under ``key``. A gift
    (``extra`` holding ``gift_for``) ships free."""
    placed, shipped, delivered = times
    shipping = 0 if extra and "gift_for" in extra else shopwell.shipping(subtotal)
    total = subtotal + shipping
    carrier = carriers[r.randrange(len(carriers))]
    order_id = f"SW-{_digits(r, 3)}-{_digits(r, 7)}"
    while order_id in ids:
        order_id = f"SW-{_digits(r, 3)}-{_digits(r, 7)}"
    ids.add(order_id)
    tracking = _tracking(r, carrier)
    data = {
        "order_id": order_id,
        "provider": SHOPWELL[0],
        "items": items,
        "subtotal_cents": subtotal,
        "shipping_cents": shipping,
        "total_cents": total,
        "shipping_address": home_line,
        "placed_local": iso(from_local(sim, placed), zone_name),
        "shipped_local": iso(from_local(sim, shipped), zone_name),
        "delivered_local": iso(from_local(sim, delivered), zone_name),
        "carrier": carrier,
        "tracking_number": tracking,
        "account": account,
        "site_url": SHOPWELL[1],
        "site_title": SHOPWELL[0],
        **(extra or {}),
    }
    description = card_description(sim, account, f"{SHOPWELL[0].upper()}*{order_id[3:6]}{order_id[7:11]}")
    sim.event("retail_order", placed, data, [Charge(account, -total, description, SHOPWELL[0], category)], key)
    sim.event(
        "retail_delivery",
        delivered,
        {
            "order_id": order_id,
            "provider": SHOPWELL[0],
            "carrier": carrier,
            "tracking_number": tracking,
            "items": [x["name"] for x in items],
            "shipping_address": home_line,
            "delivered_local": data["delivered_local"],
        },
        key=key,
    )


# --- the spec's own purchases ---------------------------------------------------------------------------------


def _online(merchant: str | None) -> bool:
    """Whether a spec purchase at ``merchant`` is an order at the online shop (no merchant, or the shop's name)."""
    return merchant is None or name_key(merchant) == name_key(SHOPWELL[0])


@world_step(
    rank=51,
    reads=("retail_order",),
    writes=("retail_order", "retail_delivery", "card_purchase", "ledger"),
)
def simulate_spec_purchases(sim: Sim) -> None:
    """Append the spec's ``purchases`` as they were written (module rules): a Shopwell order with its parcel, or a
    card purchase at a store. Nothing, and no draw, for a spec without purchases."""
    p = sim.persona
    if not p.purchases:
        return
    cur = p.finances.currency
    account = sim.card()
    home = p.identity.address
    home_line = format_address(home)
    carriers = CARRIERS.get(home.country.upper(), ANY_CARRIERS)
    ids = {e.data.get("order_id") for e in sim.of_kind("retail_order")}
    trips = (p.travel.trips or []) if p.travel else []
    for i, buy in enumerate(p.purchases):
        r = sim.rng(f"orders/spec/{i}")
        unit = cents(buy.price, cur)
        if not _online(buy.merchant):
            at = awake(sim, r, _at(buy.date, r, (9, 0), (20, 30)))
            trip = next((t for t in trips if t.depart <= buy.date <= t.return_), None)
            city = trip.destination if trip else home.city
            category = buy.category or "shopping"
            store = Merchant(derived_id(sim.seed, "merchant", "spec", buy.merchant, city), buy.merchant, category, city)
            memo = f"{buy.quantity} × {buy.item}" if buy.quantity > 1 else buy.item
            purchase(
                sim, at, store, unit * buy.quantity, ("spec", i), account, memo, item=buy.item, quantity=buy.quantity
            )
            continue
        placed = awake(sim, r, _at(buy.date, r, (8, 0), (22, 45)))
        it = shopwell.spec_item(buy.item, unit, buy.quantity, buy.category, p.bank, cur)
        subtotal = unit * buy.quantity
        ship_days, transit_days = r.randint(1, 2), r.randint(2, 6)
        shipped = _at(buy.date + dt.timedelta(days=ship_days), r, (6, 0), (20, 0))
        delivered = _at(buy.date + dt.timedelta(days=ship_days + transit_days), r, (10, 0), (19, 30))
        times = (placed, shipped, delivered)
        category = buy.category or "shopping"
        _shopwell_order(
            sim, r, ids, ("spec", i), times, [it], subtotal, account, home_line, p.timezone, carriers, category
        )


# --- what this domain mails (through the mail channel, builder/world/mail.py) --------------------


@world_step(
    rank=66,
    reads=("restaurant_booking", "food_order", "grocery_order", "retail_order", "retail_delivery"),
    writes=("email",),
)
def mail_orders(sim: Sim) -> None:
    """Mail the confirmation of every restaurant booking and food, grocery or retail order minutes after it, and the
    shipping and delivery notices of retail parcels (see builder/world/mail.py's rules)."""
    box = mailbox(sim)
    orders = {o.data.get("order_id"): o for o in sim.of_kind("retail_order") if o.data.get("order_id")}
    for e in sim.of_kind("restaurant_booking", "food_order", "grocery_order", "retail_order", "retail_delivery"):
        d = e.data
        r, base = quoting(box, e)
        if e.kind == "retail_order":
            # Shipping notice when the parcel leaves (may be before now while the delivery is still ahead).
            shipped = parse_when(sim, first(d, "shipped_local", "shipped_at"))
            shop = first(d, "provider", "merchant", "site_title", default="Shop")
            sender = {"name": shop, "email": f"shipping@{site_domain(d.get('site_url'), shop)}"}
            if shipped is not None and e.at <= shipped <= sim.now:
                subject, body = render(
                    "retail_shipped", **base, shop=shop, order=d, eta=parse_when(sim, d.get("delivered_local"))
                )
                box.single(
                    ("shipped", e.id),
                    shipped + dt.timedelta(seconds=r.randint(30, 900)),
                    sender,
                    subject,
                    body,
                    labels=["receipts"],
                    ref=e.id,
                    r=r,
                    read_p=0.8,
                    archive_p=0.4,
                    series="shipping",
                )
        if e.at > sim.now:
            continue
        if e.kind == "restaurant_booking":
            sender = business_sender(d, ("provider", "restaurant"), "Reservations", "reservations")
            subject, body = render(
                "restaurant_booking",
                **base,
                provider=sender["name"],
                restaurant=first(d, "restaurant", "merchant", default="the restaurant"),
                when=reservation_time(sim, e),
            )
            box.single(
                ("confirm", e.id),
                sent_after(box, e, r),
                sender,
                subject,
                body,
                labels=["reservations"],
                ref=e.id,
                r=r,
                series="reservation",
            )
        elif e.kind in ("food_order", "grocery_order", "retail_order"):
            sender = business_sender(d, ("provider", "merchant", "site_title"), "Shop", "orders")
            subject, body = render(
                e.kind,
                **base,
                shop=sender["name"],
                placed=e.at,
                window=(parse_when(sim, d.get("delivery_window_start")), parse_when(sim, d.get("delivery_window_end"))),
            )
            box.single(
                ("confirm", e.id),
                sent_after(box, e, r),
                sender,
                subject,
                body,
                labels=["receipts"],
                ref=e.id,
                r=r,
                read_p=0.9,
                archive_p=0.4,
                series="order_confirmation",
            )
        elif e.kind == "retail_delivery":
            order = orders.get(d.get("order_id"))
            od = order.data if order else {}
            shop = first(d, "provider", default=first(od, "provider", default="Shop"))
            sender = {"name": shop, "email": f"shipping@{site_domain(od.get('site_url'), shop)}"}
            subject, body = render(
                "retail_delivery", **{**base, "items": order_lines(od) or order_lines(d)}, shop=shop, order=od
            )
            box.single(
                ("delivered", e.id),
                sent_after(box, e, r, 30, 600),
                sender,
                subject,
                body,
                labels=["receipts"],
                ref=e.id,
                r=r,
                read_p=0.8,
                archive_p=0.4,
                series="shipping",
            )

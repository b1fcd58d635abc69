/**
 * The starter sites a new owner can begin from (docs/starters.md): each a theme, its pages and
 * placeholder content written to look finished, with artwork drawn by the seed's art generator.
 */
import {
  type Starter,
  button,
  contactForm,
  form,
  gallery,
  image,
  map,
  menu,
  newsletter,
  newsletterForm,
  quote,
  row,
  summary,
  text,
} from "./kit.js";

const onlineStore: Starter = {
  id: "online-store",
  name: "Online store",
  description: "A shop with products, a home page that shows them off, an about page and a contact page.",
  websiteType: 4,
  theme: "market",
  tagline: "Everyday goods, made well.",
  motif: "bag",
  forms: { contact: contactForm(["An order", "Returns", "Wholesale", "Something else"]) },
  pages: [
    {
      key: "home",
      kind: "page",
      title: "Home",
      slug: "home",
      isHome: true,
      layout: async (k) => [
        row([image(await k.image("Our spring collection", "landscape"), "Our spring collection")]),
        row([
          text(
            "<h1>Everyday goods, made well.</h1><p>Bags, homeware and small things we would buy ourselves, made in small batches by people we know.</p>",
          ),
          button("Shop the collection", "/shop"),
        ]),
        row([summary(k.page("shop"), "New in the shop", 4)]),
        row(
          [image(await k.image("In the workshop", "stack"), "In the workshop")],
          [
            text(
              "<h2>Made to last</h2><p>We choose sturdy materials, stitch every seam twice and repair what we sell. If something wears out, write to us.</p>",
            ),
            button("Our story", "/about", "secondary"),
          ],
        ),
      ],
    },
    {
      key: "shop",
      kind: "products",
      title: "Shop",
      slug: "shop",
      description: "Everything we make, in small batches.",
      products: [
        {
          title: "Canvas Market Tote",
          type: 1,
          motif: "bag",
          excerpt: "Heavy waxed canvas with leather handles.",
          body: "<p>A roomy tote in heavy waxed canvas with vegetable-tanned leather handles and an inside pocket for keys.</p>",
          priceCents: 5800,
          option: ["Color", ["Olive", "Sand", "Black"]],
          categories: ["Bags"],
        },
        {
          title: "Stoneware Mug",
          type: 1,
          motif: "vessel",
          excerpt: "Wheel-thrown, 12 oz, glazed inside and out.",
          body: "<p>Thrown by hand and glazed in small batches, so no two are quite alike. Dishwasher safe.</p>",
          priceCents: 3200,
          categories: ["Home"],
        },
        {
          title: "Linen Tea Towel",
          type: 1,
          motif: "cloth",
          excerpt: "Stonewashed linen that dries fast and softens with use.",
          body: "<p>A generous tea towel in stonewashed linen with a hanging loop.</p>",
          priceCents: 1800,
          categories: ["Home"],
        },
        {
          title: "Oak Serving Board",
          type: 1,
          motif: "board",
          excerpt: "Solid oak, oiled by hand.",
          body: "<p>Cut from a single piece of oak and finished with food-safe oil.</p>",
          priceCents: 4600,
          option: ["Size", ["Small", "Large"]],
          categories: ["Home"],
        },
        {
          title: "Leather Card Wallet",
          type: 1,
          motif: "card",
          excerpt: "Four pockets, one piece of leather.",
          body: "<p>A slim wallet folded from one piece of leather, with four card pockets.</p>",
          priceCents: 3900,
          categories: ["Accessories"],
        },
        {
          title: "Ceramic Planter",
          type: 1,
          motif: "arch",
          excerpt: "With a drainage hole and a matching saucer.",
          body: "<p>A planter in matte stoneware with a drainage hole and saucer.</p>",
          priceCents: 4200,
          categories: ["Home"],
        },
      ],
    },
    {
      key: "about",
      kind: "page",
      title: "About",
      slug: "about",
      layout: async (k) => [
        row(
          [image(await k.image("The people behind the shop", "arch"), "The people behind the shop")],
          [
            text(
              "<h1>About us</h1><p>We started as two friends with a market stall and a sewing machine. Today we work with six small workshops, and we still pack every order ourselves.</p><p>Replace this text with your own story: who you are, what you make and why.</p>",
            ),
          ],
        ),
        row([quote("The tote I bought five years ago still goes everywhere with me.", "Sam, a customer")]),
      ],
    },
    {
      key: "contact",
      kind: "page",
      title: "Contact",
      slug: "contact",
      layout: async (k) => [
        row(
          [
            text(
              "<h1>Get in touch</h1><p>Questions about an order, returns or wholesale? We answer within two working days.</p>",
            ),
          ],
          [form(k.form("contact"))],
        ),
      ],
    },
  ],
};

const portfolio: Starter = {
  id: "portfolio",
  name: "Portfolio",
  description: "Images first: a gallery of work, a projects page, an about page and a way to get in touch.",
  websiteType: 1,
  theme: "studio",
  tagline: "Photography and design.",
  motif: "arch",
  forms: { contact: contactForm(["A commission", "Prints", "Press", "Something else"]) },
  pages: [
    {
      key: "home",
      kind: "page",
      title: "Home",
      slug: "home",
      isHome: true,
      layout: async (k) => [
        row([
          text(
            "<h1>Quiet pictures of ordinary places.</h1><p>Photography and design for books, brands and magazines.</p>",
          ),
          button("See the projects", "/projects"),
        ]),
        row([
          gallery([
            await k.image("Harbour at dawn", "landscape"),
            await k.image("Arches, Lisbon", "arch"),
            await k.image("Still life with bowl", "vessel"),
            await k.image("Sun over the dunes", "circle"),
            await k.image("Stacked chairs", "stack"),
            await k.image("Hills in winter", "landscape"),
          ]),
        ]),
      ],
    },
    {
      key: "projects",
      kind: "gallery",
      title: "Projects",
      slug: "projects",
      description: "Selected work, 2019 to now.",
      options: { design: "grid", "thumbnails-per-row": 3, lightbox: true },
      images: [
        { title: "Coastlines, a book", motif: "landscape" },
        { title: "Tableware for a restaurant", motif: "vessel" },
        { title: "Identity for a bakery", motif: "circle" },
        { title: "Doorways of the old town", motif: "arch" },
        { title: "Packaging for a tea shop", motif: "stack" },
        { title: "Portraits of makers", motif: "cloth" },
      ],
    },
    {
      key: "about",
      kind: "page",
      title: "About",
      slug: "about",
      layout: async (k) => [
        row(
          [image(await k.image("Portrait in the studio", "arch"), "Portrait in the studio")],
          [
            text(
              "<h1>About</h1><p>I am a photographer and designer working between the city and the coast. I like slow projects, natural light and clients who care about details.</p><p>Clients include publishers, restaurants and small brands.</p>",
            ),
            quote("Calm, precise and a joy to work with.", "An art director"),
          ],
        ),
      ],
    },
    {
      key: "contact",
      kind: "page",
      title: "Contact",
      slug: "contact",
      layout: async (k) => [
        row(
          [
            text(
              "<h1>Contact</h1><p>For commissions, prints and press, write here. I reply within a week.</p>",
            ),
          ],
          [form(k.form("contact"))],
        ),
      ],
    },
  ],
};

const cafeLocation = {
  addressTitle: "Corner Café",
  addressLine1: "18 Market Square",
  addressLine2: "Portland, OR 97205",
  addressCountry: "United States",
  mapLat: 45.5202,
  mapLng: -122.6742,
};

const cafe: Starter = {
  id: "cafe",
  name: "Restaurant or café",
  description: "A menu, opening hours, a map and a reservations form, with warm food photography.",
  websiteType: 1,
  theme: "harvest",
  tagline: "Coffee, bread and seasonal plates.",
  motif: "vessel",
  forms: {
    reservation: {
      name: "Reservations",
      submissionMessage: "Thank you! We will confirm your table by email.",
      fields: [
        { id: "name", type: "name", title: "Name", required: true },
        { id: "email", type: "email", title: "Email", required: true },
        { id: "date", type: "date", title: "Date", required: true },
        { id: "time", type: "time", title: "Time", required: true },
        { id: "guests", type: "number", title: "Guests", required: true },
        { id: "notes", type: "textarea", title: "Anything we should know?", required: false, maxLength: 500 },
      ],
    },
  },
  pages: [
    {
      key: "home",
      kind: "page",
      title: "Home",
      slug: "home",
      isHome: true,
      layout: async (k) => [
        row([image(await k.image("Morning light in the café", "landscape"), "Morning light in the café")]),
        row([
          text(
            "<h1>Coffee, bread and seasonal plates.</h1><p>A neighbourhood café on the square. We bake every morning and cook with what the farms bring us that week.</p>",
          ),
          button("See the menu", "/menu"),
        ]),
        row(
          [image(await k.image("Bread from our oven", "circle"), "Bread from our oven")],
          [
            text(
              "<h2>Opening hours</h2><p>Monday to Friday: 7am to 4pm<br>Saturday and Sunday: 8am to 5pm</p><p>Breakfast until 11:30, lunch from noon.</p>",
            ),
            button("Book a table", "/reservations", "secondary"),
          ],
        ),
        row([quote("The best cardamom bun in town, and the coffee to match.", "A local food guide")]),
      ],
    },
    {
      key: "menu",
      kind: "page",
      title: "Menu",
      slug: "menu",
      layout: async () => [
        row([
          menu(
            "Our menu",
            [
              "# Breakfast",
              "Sourdough toast | $6 | Cultured butter and seasonal jam",
              "Granola bowl | $9 | Yoghurt, poached fruit, toasted seeds",
              "Eggs on toast | $12 | Soft eggs, greens, chilli oil",
              "# Lunch",
              "Soup of the day | $10 | With bread from our oven",
              "Farm salad | $14 | Leaves, roasted roots, goat cheese, walnuts",
              "Roast vegetable sandwich | $13 | Focaccia, romesco, rocket",
              "# Drinks",
              "Espresso | $3 | Single origin, roasted locally",
              "Flat white | $4.5 | ",
              "Fresh lemonade | $5 | Lemon, honey, mint",
            ].join("\n"),
          ),
        ]),
      ],
    },
    {
      key: "visit",
      kind: "page",
      title: "Visit",
      slug: "visit",
      layout: async () => [
        row(
          [
            text(
              "<h1>Visit us</h1><p>18 Market Square, Portland. Five minutes from the tram stop, with bike racks by the door.</p><p><strong>Monday to Friday</strong> 7am to 4pm<br><strong>Saturday and Sunday</strong> 8am to 5pm</p>",
            ),
          ],
          [map(cafeLocation)],
        ),
      ],
    },
    {
      key: "reservations",
      kind: "page",
      title: "Reservations",
      slug: "reservations",
      layout: async (k) => [
        row(
          [
            text(
              "<h1>Book a table</h1><p>Walk-ins are always welcome. For groups of four or more, or for weekend brunch, book ahead and we will keep a table for you.</p>",
            ),
          ],
          [form(k.form("reservation"))],
        ),
      ],
    },
  ],
};

const magazine: Starter = {
  id: "magazine",
  name: "Blog or magazine",
  description: "Stories with pictures, sorted in categories, with a newsletter sign-up.",
  websiteType: 1,
  theme: "classic",
  tagline: "Stories about food, travel and the things we make.",
  motif: "landscape",
  forms: { newsletter: newsletterForm },
  pages: [
    {
      key: "home",
      kind: "page",
      title: "Home",
      slug: "home",
      isHome: true,
      layout: async (k) => [
        row([
          text("<h1>Field Notes</h1><p>Stories about food, travel and the things we make, every Sunday.</p>"),
        ]),
        row([summary(k.page("journal"), "Latest stories", 6)]),
        row([
          newsletter(
            k.form("newsletter"),
            "The Sunday letter",
            "One email a week with our new stories. No ads, unsubscribe any time.",
          ),
        ]),
      ],
    },
    {
      key: "journal",
      kind: "blog",
      title: "Journal",
      slug: "journal",
      description: "All our stories.",
      options: { pageSize: 6 },
      posts: [
        {
          title: "A week on the northern coast",
          motif: "landscape",
          excerpt: "Cold water, warm kitchens and the best fish soup we have eaten.",
          body: "<p>We drove north with no plan beyond the coast road. Every evening ended in a different harbour kitchen.</p><p>Replace this story with your own: a post can hold text, pictures and links.</p>",
          author: "Ana",
          categories: ["Travel"],
          daysAgo: 2,
        },
        {
          title: "How to make a sourdough starter",
          motif: "vessel",
          excerpt: "Flour, water and a week of patience.",
          body: "<p>All you need is flour, water, a jar and a week. Feed it every day and it will feed you for years.</p>",
          author: "Tom",
          categories: ["Food"],
          daysAgo: 9,
        },
        {
          title: "The potters of the old town",
          motif: "arch",
          excerpt: "Three workshops that have not changed in a century.",
          body: "<p>Behind three green doors, families have thrown pots the same way for four generations.</p>",
          author: "Ana",
          categories: ["Craft"],
          daysAgo: 16,
        },
        {
          title: "A picnic for a windy day",
          motif: "board",
          excerpt: "Food that travels well and tastes better outside.",
          body: "<p>Hand pies, a jar of pickles and a thermos of tea: our picnic for days when the wind will not stop.</p>",
          author: "Tom",
          categories: ["Food"],
          daysAgo: 23,
        },
        {
          title: "Mending, the slow way",
          motif: "cloth",
          excerpt: "Visible repairs that make old clothes better.",
          body: "<p>A few stitches in a bright thread turn a hole into the best part of a jumper.</p>",
          author: "Ana",
          categories: ["Craft"],
          daysAgo: 30,
        },
        {
          title: "Sunrise walks in the hills",
          motif: "circle",
          excerpt: "Five short walks worth getting up early for.",
          body: "<p>Leave before dawn, bring a flask, and be back for breakfast.</p>",
          author: "Tom",
          categories: ["Travel"],
          daysAgo: 37,
        },
      ],
    },
    {
      key: "about",
      kind: "page",
      title: "About",
      slug: "about",
      layout: async (k) => [
        row(
          [image(await k.image("The two of us", "arch"), "The two of us")],
          [
            text(
              "<h1>About Field Notes</h1><p>We are Ana and Tom, a writer and a cook. We started this journal to keep track of the places, recipes and people we love.</p>",
            ),
          ],
        ),
        row([
          newsletter(
            k.form("newsletter"),
            "Get new stories by email",
            "Every Sunday, never more than once a week.",
          ),
        ]),
      ],
    },
  ],
};

const services: Starter = {
  id: "services",
  name: "Services business",
  description: "Services customers can book and pay for, testimonials and a contact form.",
  websiteType: 4,
  theme: "commerce",
  tagline: "Garden design and care.",
  motif: "landscape",
  forms: { contact: contactForm(["A quote", "A booked visit", "Something else"]) },
  pages: [
    {
      key: "home",
      kind: "page",
      title: "Home",
      slug: "home",
      isHome: true,
      layout: async (k) => [
        row([image(await k.image("A garden in late summer", "landscape"), "A garden in late summer")]),
        row([
          text(
            "<h1>Gardens that look after themselves.</h1><p>We design, plant and care for gardens of every size, with plants that suit your soil and your time.</p>",
          ),
          button("Book a visit", "/services"),
        ]),
        row([summary(k.page("services"), "What we do", 4)]),
        row(
          [quote("They turned a bare yard into the place we spend every evening.", "Priya and Jon")],
          [quote("On time, tidy and full of good ideas.", "Helen, a returning client")],
        ),
      ],
    },
    {
      key: "services",
      kind: "products",
      title: "Services",
      slug: "services",
      description: "Book a visit online; we confirm the date by email.",
      products: [
        {
          title: "Garden consultation",
          type: 3,
          motif: "circle",
          excerpt: "Two hours in your garden with a designer, and a written plan.",
          body: "<p>We walk the garden with you, test the soil and send a written plan with a planting list within a week.</p>",
          priceCents: 15000,
        },
        {
          title: "Planting day",
          type: 3,
          motif: "arch",
          excerpt: "A team of two plants your new borders in a day.",
          body: "<p>Two gardeners, a day, and the plants from your plan in the ground. Plants are charged separately.</p>",
          priceCents: 48000,
        },
        {
          title: "Monthly care",
          type: 3,
          motif: "stack",
          excerpt: "A visit a month to prune, weed and feed.",
          body: "<p>One visit a month from spring to autumn: pruning, weeding, feeding and advice.</p>",
          priceCents: 9000,
          option: ["Garden size", ["Small", "Medium", "Large"]],
        },
        {
          title: "Lawn renewal",
          type: 3,
          motif: "landscape",
          excerpt: "A tired lawn scarified, seeded and fed in one visit.",
          body: "<p>We scarify, aerate, seed and feed your lawn in one visit, and tell you how to water it for the next month.</p>",
          priceCents: 22000,
        },
      ],
    },
    {
      key: "about",
      kind: "page",
      title: "About",
      slug: "about",
      layout: async (k) => [
        row(
          [image(await k.image("Our team at work", "stack"), "Our team at work")],
          [
            text(
              "<h1>About us</h1><p>A small team of trained gardeners and one designer. We have been planting gardens in the city for twelve years.</p>",
            ),
          ],
        ),
      ],
    },
    {
      key: "contact",
      kind: "page",
      title: "Contact",
      slug: "contact",
      layout: async (k) => [
        row(
          [
            text(
              "<h1>Ask for a quote</h1><p>Tell us about your garden and what you would like. We answer within two days.</p>",
            ),
          ],
          [form(k.form("contact"))],
        ),
      ],
    },
  ],
};

const event: Starter = {
  id: "event",
  name: "Event or cover page",
  description: "One page for an event or a launch: a big picture, the date and place, and a sign-up.",
  websiteType: 2,
  theme: "cover",
  tagline: "A summer night of music by the river.",
  motif: "circle",
  forms: {
    rsvp: {
      name: "RSVP",
      submissionMessage: "You are on the list! We will send the details a week before.",
      fields: [
        { id: "name", type: "name", title: "Name", required: true },
        { id: "email", type: "email", title: "Email", required: true },
        { id: "guests", type: "number", title: "Guests", required: false },
      ],
    },
  },
  pages: [
    {
      key: "home",
      kind: "page",
      title: "Home",
      slug: "home",
      isHome: true,
      layout: async (k) => [
        row([image(await k.image("Lights over the river", "landscape"), "Lights over the river")]),
        row([
          text(
            "<h1>Riverside Nights</h1><p><strong>Saturday 14 June, 6pm to midnight</strong><br>Three stages, food stalls and music until late, on the old wharf.</p>",
          ),
          button("Save your place", "#rsvp"),
        ]),
        row(
          [
            text(
              "<h2>Where</h2><p>The Old Wharf, Riverside Walk. Ten minutes from the station; no parking on site.</p>",
            ),
          ],
          [
            map({
              addressTitle: "The Old Wharf",
              addressLine1: "Riverside Walk",
              addressLine2: "Bristol BS1 4RN",
              addressCountry: "United Kingdom",
              mapLat: 51.4486,
              mapLng: -2.5979,
            }),
          ],
        ),
        row([form(k.form("rsvp"), "RSVP")]),
      ],
    },
  ],
};

/** Every starter, in the order the dashboard shows them. */
export const STARTERS: readonly Starter[] = [onlineStore, portfolio, cafe, magazine, services, event];

export function starterById(id: string): Starter | undefined {
  return STARTERS.find((s) => s.id === id);
}

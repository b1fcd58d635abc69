/** The copy of the demo store "Atelier Demo": a small ceramics and home-goods studio. */
import type { ItemLocation } from "../db/schema.js";
import type { Motif } from "./art.js";

interface DemoVariant {
  attributes?: Record<string, string>;
  price: number;
  salePrice?: number;
  stock?: number;
  unlimited?: boolean;
}

interface DemoProduct {
  slug: string;
  title: string;
  type: 1 | 2 | 3 | 4;
  motif: Motif;
  excerpt: string;
  body: string;
  options?: string[];
  variants: DemoVariant[];
  tags: string[];
  categories: string[];
  subscription?: { unit: "WEEK" | "MONTH" | "YEAR"; value: number; numBillingCycles: number };
  scarcityText?: string;
  customAddButtonText?: string;
  giftCardDenominations?: number[];
}

const sizes = ["S", "M", "L", "XL"];

function grid(
  options: [string, string[]],
  second: [string, string[]] | undefined,
  price: number,
  stock: (i: number) => number,
  salePrice?: number,
): DemoVariant[] {
  const out: DemoVariant[] = [];
  let i = 0;
  for (const a of options[1]) {
    for (const b of second ? second[1] : [undefined]) {
      const attributes: Record<string, string> = { [options[0]]: a };
      if (second && b) attributes[second[0]] = b;
      out.push({ attributes, price, salePrice, stock: stock(i++) });
    }
  }
  return out;
}

export const demoProducts: DemoProduct[] = [
  {
    slug: "linen-work-apron",
    title: "Linen Work Apron",
    type: 1,
    motif: "cloth",
    excerpt: "Stonewashed Lithuanian linen with deep pockets and cross-back straps.",
    body: "<p>Cut from heavy stonewashed linen that softens with every wash, our work apron has two deep front pockets, a pencil slot and cross-back straps that take the weight off your neck. We wear ours at the wheel all day.</p><p>One size fits most. Machine wash cold, line dry.</p>",
    options: ["Color"],
    variants: grid(["Color", ["Natural", "Charcoal", "Rust"]], undefined, 6800, (i) => [8, 5, 2][i]!),
    tags: ["linen", "studio"],
    categories: ["Textiles"],
    scarcityText: "Only {qtyInStock} left in stock",
  },
  {
    slug: "everyday-linen-shirt",
    title: "Everyday Linen Shirt",
    type: 1,
    motif: "cloth",
    excerpt: "A relaxed camp-collar shirt in garment-dyed linen.",
    body: "<p>A relaxed, boxy camp-collar shirt in garment-dyed European linen. Breathable in summer, easy to layer in autumn, and better every time you wear it.</p>",
    options: ["Size", "Color"],
    variants: grid(
      ["Size", sizes],
      ["Color", ["Indigo", "Sand"]],
      9800,
      (i) => [3, 6, 0, 4, 7, 2, 10, 0][i]!,
    ),
    tags: ["linen", "apparel"],
    categories: ["Apparel"],
  },
  {
    slug: "stoneware-mug",
    title: "Stoneware Mug",
    type: 1,
    motif: "vessel",
    excerpt: "Wheel-thrown, 12 oz, glazed inside and out.",
    body: "<p>Each mug is thrown by hand in our studio and glazed in small batches, so no two are quite alike. Holds 12 oz. Dishwasher and microwave safe.</p>",
    options: ["Glaze"],
    variants: grid(["Glaze", ["Speckled White", "Moss", "Midnight"]], undefined, 3400, (i) => [10, 4, 2][i]!),
    tags: ["ceramics", "kitchen"],
    categories: ["Ceramics"],
    scarcityText: "Only {qtyInStock} left",
  },
  {
    slug: "hand-thrown-vase",
    title: "Hand-Thrown Bud Vase",
    type: 1,
    motif: "vessel",
    excerpt: "A small vase for a single stem, in a satin oatmeal glaze.",
    body: "<p>A little vase for a single stem or a sprig from the garden, finished in our satin oatmeal glaze. About 6 inches tall.</p>",
    variants: [{ price: 4200, stock: 3 }],
    tags: ["ceramics"],
    categories: ["Ceramics"],
  },
  {
    slug: "walnut-serving-board",
    title: "Walnut Serving Board",
    type: 1,
    motif: "board",
    excerpt: "Solid black walnut, oiled by hand. Now on sale.",
    body: "<p>Made from a single piece of North American black walnut and finished with food-safe oil and beeswax. Generous enough for a cheese course, handsome enough to leave on the counter.</p>",
    options: ["Size"],
    variants: [
      { attributes: { Size: "Small" }, price: 5400, salePrice: 4300, stock: 6 },
      { attributes: { Size: "Large" }, price: 8800, salePrice: 7000, stock: 4 },
    ],
    tags: ["wood", "kitchen"],
    categories: ["Kitchen"],
  },
  {
    slug: "merino-throw",
    title: "Merino Wool Throw",
    type: 1,
    motif: "cloth",
    excerpt: "Woven in a small mill in Portugal. Sold out until spring.",
    body: "<p>A generous throw in soft merino wool, woven for us by a family mill in northern Portugal. This season's run has sold out; sign up to hear when it is back.</p>",
    options: ["Color"],
    variants: grid(["Color", ["Oat", "Forest"]], undefined, 18500, () => 0),
    tags: ["wool", "home"],
    categories: ["Textiles"],
  },
  {
    slug: "cotton-napkins",
    title: "Cotton Napkins, Set of 4",
    type: 1,
    motif: "stack",
    excerpt: "Soft, heavy cotton napkins in four earthy colours. On sale.",
    body: "<p>A set of four heavy cotton napkins in our seasonal colours. Pre-washed, so they will not shrink.</p>",
    options: ["Palette"],
    variants: [
      { attributes: { Palette: "Earth" }, price: 3200, salePrice: 2400, stock: 9 },
      { attributes: { Palette: "Sea" }, price: 3200, salePrice: 2400, stock: 7 },
    ],
    tags: ["cotton", "kitchen"],
    categories: ["Textiles"],
  },
  {
    slug: "ceramic-planter",
    title: "Ceramic Planter",
    type: 1,
    motif: "arch",
    excerpt: "A footed planter with a drainage hole and saucer.",
    body: "<p>Footed stoneware planter with a drainage hole and a matching saucer. Raw clay outside, glazed inside.</p>",
    options: ["Size"],
    variants: [
      { attributes: { Size: "Small" }, price: 3800, stock: 5 },
      { attributes: { Size: "Medium" }, price: 5200, stock: 2 },
      { attributes: { Size: "Large" }, price: 7400, stock: 0 },
    ],
    tags: ["ceramics", "plants"],
    categories: ["Ceramics"],
  },
  {
    slug: "beeswax-candle",
    title: "Beeswax Pillar Candle",
    type: 1,
    motif: "arch",
    excerpt: "Pure beeswax from a local apiary. Burns for 40 hours.",
    body: "<p>Poured by hand from pure beeswax from an apiary an hour from the studio. Burns cleanly for about 40 hours with a faint scent of honey.</p>",
    options: ["Height"],
    variants: [
      { attributes: { Height: "4 in" }, price: 2200, unlimited: true },
      { attributes: { Height: "6 in" }, price: 2900, unlimited: true },
    ],
    tags: ["home"],
    categories: ["Home"],
  },
  {
    slug: "wool-beanie",
    title: "Ribbed Wool Beanie",
    type: 1,
    motif: "circle",
    excerpt: "Knitted from undyed British wool. On sale.",
    body: "<p>A snug ribbed beanie knitted from undyed British wool. Warm, breathable and made to last for winters to come.</p>",
    options: ["Color"],
    variants: [
      { attributes: { Color: "Natural" }, price: 4500, salePrice: 3600, stock: 6 },
      { attributes: { Color: "Charcoal" }, price: 4500, stock: 8 },
    ],
    tags: ["wool", "apparel"],
    categories: ["Apparel"],
  },
  {
    slug: "pour-over-set",
    title: "Pour-Over Coffee Set",
    type: 1,
    motif: "vessel",
    excerpt: "A stoneware dripper and carafe for the slow morning cup.",
    body: "<p>Our stoneware dripper paired with a matching 600 ml carafe. Takes standard #2 filters.</p>",
    variants: [{ price: 7600, stock: 4 }],
    tags: ["ceramics", "coffee"],
    categories: ["Kitchen"],
  },
  {
    slug: "field-notes-journal",
    title: "Cloth-Bound Field Journal",
    type: 1,
    motif: "card",
    excerpt: "A lay-flat notebook with 160 pages of cream dot-grid paper.",
    body: "<p>Sewn-bound, lay-flat notebook with a linen cover and 160 pages of 100 gsm cream dot-grid paper. For sketches, glaze recipes and lists.</p>",
    variants: [{ price: 2600, unlimited: true }],
    tags: ["paper"],
    categories: ["Stationery"],
  },
  {
    slug: "everyday-tote",
    title: "Everyday Canvas Tote",
    type: 1,
    motif: "bag",
    excerpt: "Heavy waxed canvas with leather handles.",
    body: "<p>A roomy tote in heavy waxed canvas with vegetable-tanned leather handles and an inside pocket for your keys.</p>",
    options: ["Color"],
    variants: [
      { attributes: { Color: "Olive" }, price: 6400, stock: 10 },
      { attributes: { Color: "Tobacco" }, price: 6400, stock: 3 },
    ],
    tags: ["canvas"],
    categories: ["Accessories"],
  },
  {
    slug: "pottery-at-home-course",
    title: "Pottery at Home — Video Course",
    type: 2,
    motif: "landscape",
    excerpt: "Eight lessons on hand-building without a wheel. Instant download.",
    body: "<p>Eight video lessons, about three hours in all, on pinch pots, coils and slabs — everything you need to make beautiful pieces at your kitchen table without a wheel or a kiln of your own.</p>",
    variants: [{ price: 4900, unlimited: true }],
    tags: ["course", "digital"],
    categories: ["Learn"],
  },
  {
    slug: "glaze-recipe-book",
    title: "Studio Glaze Recipes (PDF)",
    type: 2,
    motif: "card",
    excerpt: "Twenty-four tested cone 6 glaze recipes with photos.",
    body: "<p>Our twenty-four favourite mid-fire glaze recipes, each with test-tile photos and notes on application. A 60-page PDF.</p>",
    variants: [{ price: 1800, unlimited: true }],
    tags: ["digital", "ceramics"],
    categories: ["Learn"],
  },
  {
    slug: "wheel-throwing-workshop",
    title: "Wheel-Throwing Workshop",
    type: 3,
    motif: "circle",
    excerpt: "A three-hour Saturday class for complete beginners.",
    body: "<p>Spend a Saturday morning at the wheel with one of our potters. We provide clay, tools, aprons and coffee; you leave with two pieces, which we glaze and fire for you.</p>",
    variants: [{ price: 9500, stock: 8 }],
    tags: ["class"],
    categories: ["Learn"],
    customAddButtonText: "Book a Seat",
  },
  {
    slug: "atelier-gift-card",
    title: "Atelier Gift Card",
    type: 4,
    motif: "card",
    excerpt: "Let them choose. Delivered by email.",
    body: "<p>A gift card for anything in the shop or a place in a workshop, delivered by email with your note. Never expires.</p>",
    variants: [{ price: 2500 }, { price: 5000 }, { price: 10000 }],
    giftCardDenominations: [2500, 5000, 10000],
    tags: ["gift"],
    categories: ["Gifts"],
  },
  {
    slug: "single-origin-coffee",
    title: "Single-Origin Coffee Beans",
    type: 1,
    motif: "bag",
    excerpt: "A 340 g bag from our neighbours at Hillside Roasters, also by subscription.",
    body: "<p>Roasted fresh each week by our neighbours at Hillside Roasters. Buy a bag, or subscribe and a new one arrives every month.</p>",
    options: ["Grind"],
    variants: [
      { attributes: { Grind: "Whole Bean" }, price: 1900, unlimited: true },
      { attributes: { Grind: "Filter" }, price: 1900, unlimited: true },
    ],
    tags: ["coffee"],
    categories: ["Kitchen"],
    subscription: { unit: "MONTH", value: 1, numBillingCycles: 0 },
  },
];

interface DemoPost {
  slug: string;
  title: string;
  author: string;
  daysAgo: number;
  categories: string[];
  tags: string[];
  excerpt: string;
  body: string;
  motif: Motif;
  comments: { author: string; body: string }[];
}

export const demoPosts: DemoPost[] = [
  {
    slug: "a-week-at-the-wheel",
    title: "A Week at the Wheel",
    author: "Maya Chen",
    daysAgo: 3,
    categories: ["Studio"],
    tags: ["ceramics", "process"],
    excerpt: "From a bag of clay to a shelf of mugs: what five days in the studio really look like.",
    body: "<p>People often ask how long a mug takes. The honest answer is about three weeks, even though the throwing itself takes a few minutes. Clay needs time: to be wedged, thrown, trimmed, dried slowly under plastic, bisque fired, glazed and fired again.</p><p>This week we threw a hundred and twenty mugs for the spring collection. Here is how the days went, from Monday's wedging to Friday's first kiln load.</p>",
    motif: "vessel",
    comments: [
      { author: "Priya", body: "I had no idea it took three weeks. Makes me love my mug even more." },
      { author: "Tom", body: "Would love a post on trimming next!" },
    ],
  },
  {
    slug: "caring-for-linen",
    title: "How to Care for Linen",
    author: "Jonas Berg",
    daysAgo: 10,
    categories: ["Guides"],
    tags: ["linen", "care"],
    excerpt: "Wash cool, skip the dryer, and never iron it flat: linen is happiest a little rumpled.",
    body: "<p>Linen is one of the oldest fibres we know, and one of the easiest to live with. Wash it cool with a gentle detergent, skip the fabric softener, and hang it to dry.</p><p>If you must iron, do it while the fabric is still damp. But the soft, lived-in creases are half the charm.</p>",
    motif: "cloth",
    comments: [{ author: "Ella", body: "Thank you, my apron is finally soft!" }],
  },
  {
    slug: "spring-collection",
    title: "Introducing the Spring Collection",
    author: "Maya Chen",
    daysAgo: 18,
    categories: ["News"],
    tags: ["collection", "ceramics"],
    excerpt: "Moss and midnight glazes, a new bud vase, and napkins in two new palettes.",
    body: "<p>Spring is here, and so is our new collection: two new glazes, Moss and Midnight, a bud vase for single stems, and cotton napkins in Earth and Sea.</p>",
    motif: "arch",
    comments: [],
  },
  {
    slug: "visiting-hillside-roasters",
    title: "Visiting Hillside Roasters",
    author: "Jonas Berg",
    daysAgo: 27,
    categories: ["Studio"],
    tags: ["coffee", "neighbours"],
    excerpt: "Our neighbours roast the coffee we drink every morning. We spent a day with them.",
    body: "<p>Every morning starts with coffee from Hillside Roasters, two doors down. We spent a day with them to learn how a green bean becomes our favourite cup.</p>",
    motif: "bag",
    comments: [{ author: "Sam", body: "Their Ethiopian roast is the best." }],
  },
  {
    slug: "five-glazes-we-love",
    title: "Five Glazes We Love",
    author: "Maya Chen",
    daysAgo: 40,
    categories: ["Guides"],
    tags: ["glaze", "ceramics"],
    excerpt: "Satin oatmeal, speckled white, and three more glazes we keep coming back to.",
    body: "<p>We test dozens of glazes every year and keep only a few. These five have earned their place on the studio shelf.</p>",
    motif: "circle",
    comments: [],
  },
  {
    slug: "why-we-make-things-slowly",
    title: "Why We Make Things Slowly",
    author: "Jonas Berg",
    daysAgo: 55,
    categories: ["News"],
    tags: ["values"],
    excerpt: "Small batches, local materials, and things meant to be used for decades.",
    body: "<p>We started the studio to make a few good things slowly. Small batches let us use local materials, pay people fairly and fix what we get wrong.</p>",
    motif: "landscape",
    comments: [
      { author: "Lena", body: "This is why I shop here." },
      { author: "Marco", body: "Beautifully said." },
      { author: "Ana", body: "More of this, please." },
    ],
  },
];

interface DemoEvent {
  slug: string;
  title: string;
  startInDays: number;
  hours: number;
  excerpt: string;
  body: string;
  location: Required<ItemLocation>;
}

/** The studio's address: most demo events take place there, and the contact page maps it. */
export const studio: Required<ItemLocation> = {
  addressTitle: "Atelier Studio",
  addressLine1: "214 Mercer Street",
  addressLine2: "New York, NY 10012",
  addressCountry: "United States",
  mapLat: 40.7265,
  mapLng: -73.9973,
};

export const demoEvents: DemoEvent[] = [
  {
    slug: "spring-open-studio",
    title: "Spring Open Studio",
    startInDays: 12,
    hours: 5,
    excerpt: "Meet the makers, see the kilns and shop seconds at a discount.",
    body: "<p>Once a season we open the studio doors. Come meet the potters, see the kilns, and find seconds at a discount.</p>",
    location: studio,
  },
  {
    slug: "beginners-wheel-night",
    title: "Beginners' Wheel Night",
    startInDays: 20,
    hours: 3,
    excerpt: "An evening at the wheel for complete beginners. Clay and aprons provided.",
    body: "<p>Never touched clay? This evening is for you. Clay, tools and aprons provided.</p>",
    location: studio,
  },
  {
    slug: "market-at-the-pier",
    title: "Makers' Market at the Pier",
    startInDays: 34,
    hours: 7,
    excerpt: "Find us at the summer makers' market with the new collection.",
    body: "<p>We will have a stall at the summer makers' market with the new collection and a few one-off pieces.</p>",
    location: {
      addressTitle: "Pier 57",
      addressLine1: "25 11th Avenue",
      addressLine2: "New York, NY 10011",
      addressCountry: "United States",
      mapLat: 40.7432,
      mapLng: -74.0087,
    },
  },
  {
    slug: "winter-kiln-opening",
    title: "Winter Kiln Opening",
    startInDays: -30,
    hours: 3,
    excerpt: "We opened the big kiln together, with mulled cider.",
    body: "<p>Thank you to everyone who came to watch us open the big kiln. The cider went fast.</p>",
    location: studio,
  },
  {
    slug: "glaze-lab-evening",
    title: "Glaze Lab Evening",
    startInDays: -60,
    hours: 2,
    excerpt: "A hands-on evening mixing and testing glazes.",
    body: "<p>An evening of mixing, dipping and comparing test tiles.</p>",
    location: studio,
  },
];

export const demoGallery: { title: string; motif: Motif }[] = [
  { title: "Morning light on the shelves", motif: "landscape" },
  { title: "Fresh off the wheel", motif: "vessel" },
  { title: "Glaze tests", motif: "circle" },
  { title: "Linen, drying", motif: "cloth" },
  { title: "Walnut offcuts", motif: "board" },
  { title: "Kiln day", motif: "arch" },
  { title: "Stacks of bowls", motif: "stack" },
  { title: "Market table", motif: "bag" },
];

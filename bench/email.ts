/**
 * The order confirmation's HTML, rendered N times in one process two ways: juice on the whole
 * page (renderEmailWithJuice, what every email cost before) and renderEmail (each opening tag's
 * inlined CSS remembered per stylesheet). Prints µs per email for both, in rounds that alternate
 * the two so that a change in machine load weighs on both alike; each email is a different order
 * (its number, lines and amounts), as at checkout.
 *
 *   npm run bench:email        BENCH_EMAILS=2000 (default, per way)
 */
import { performance } from "node:perf_hooks";
import { fontById } from "../apps/server/src/modules/design/fonts.js";
import { juiced } from "../apps/server/src/modules/email/inline-css.js";
import {
  type EmailBrand,
  renderEmail,
  renderEmailWithJuice,
} from "../apps/server/src/modules/email/layout.js";
import { orderConfirmation } from "../apps/server/src/modules/orders/emails.js";
import type { OrderLineRow, OrderRow } from "../apps/server/src/modules/orders/service.js";

const EMAILS = Number(process.env.BENCH_EMAILS ?? 2_000);
const ROUNDS = 10;

const brand: EmailBrand = {
  siteTitle: "Maison & Fils",
  siteUrl: "https://maison.example",
  colors: {
    background: "#fdf8f2",
    text: "#2b1d12",
    accent: "#7a1f5c",
    accentText: "#ffffff",
    muted: "#8a7a6b",
    border: "#eadfd2",
  },
  fonts: { heading: fontById("lora")!.stack, body: fontById("system-sans")!.stack },
  logo: { url: "https://maison.example/media/m1/logo.png", alt: "Maison & Fils", height: 48 },
  buttonRadius: "6px",
};

/** The document of order n: two or three lines, a discount, shipping, tax, both addresses. */
function confirmation(n: number) {
  const lines = [
    {
      productName: "Linen shirt",
      unitPriceCents: 4_500 + n,
      quantity: 1 + (n % 3),
      attributes: { Size: "M" },
    },
    { productName: `Mug no. ${n}`, unitPriceCents: 1_900, quantity: 1, attributes: {} },
    ...(n % 2 ? [{ productName: "Gift wrap", unitPriceCents: 300, quantity: 1, attributes: {} }] : []),
  ] as OrderLineRow[];
  const address = {
    firstName: "Ann",
    lastName: "Lee",
    line1: `${n} Main Street`,
    city: "Springfield",
    country: "US",
  };
  const order = {
    orderNumber: 1_000 + n,
    currency: "USD",
    testMode: false,
    subtotalCents: 10_000 + n,
    shippingCents: 590,
    taxCents: 800,
    grandTotalCents: 10_390 + n,
    shippingAddress: address,
    billingAddress: address,
    details: {
      shippingOption: { id: "s", name: "Standard", costCents: 590 },
      discounts: [{ name: "Summer sale", amountCents: 1_000, shippingCents: 0 }],
    },
  } as unknown as OrderRow;
  return orderConfirmation({ title: brand.siteTitle }, order, lines, {
    orderUrl: `https://maison.example/account/orders/o${n}`,
    downloads: [],
    giftCards: [],
    subscriptions: [],
  }).doc;
}

const docs = Array.from({ length: EMAILS }, (_, i) => confirmation(i));
const ways = { "juice on the whole page": renderEmailWithJuice, renderEmail } as const;
const spent = { "juice on the whole page": 0, renderEmail: 0 };
let bytes = 0;

for (const render of Object.values(ways))
  for (const doc of docs.slice(0, 50)) bytes += render(brand, doc).html.length;
const perRound = Math.ceil(EMAILS / ROUNDS);
for (let r = 0; r < ROUNDS; r++) {
  const round = docs.slice(r * perRound, (r + 1) * perRound);
  const order =
    r % 2
      ? (["renderEmail", "juice on the whole page"] as const)
      : (Object.keys(ways) as (keyof typeof ways)[]);
  for (const name of order) {
    const start = performance.now();
    for (const doc of round) bytes += ways[name](brand, doc).html.length;
    spent[name] += performance.now() - start;
  }
}

console.log(
  `order confirmation, ${EMAILS} different orders per way (${(bytes / 1e6).toFixed(1)} MB of HTML in all)`,
);
for (const [name, ms] of Object.entries(spent))
  console.log(`  ${name.padEnd(24)} ${((ms * 1000) / EMAILS).toFixed(1)} µs per email`);
console.log(
  `  renderEmail gave ${juiced.pages} of its ${EMAILS + 50} pages to juice (those with a tag not seen before)`,
);
console.log(
  `  ratio                    ${(spent["juice on the whole page"] / spent.renderEmail).toFixed(1)}×`,
);

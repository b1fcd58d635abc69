import { describe, expect, it } from "vitest";
import {
  emailChangedNotice,
  manyWrongPasswordsNotice,
  newDeviceNotice,
  passwordChangedNotice,
  securityEmail,
} from "../accounts/security-emails.js";
import { fontById } from "../design/fonts.js";
import { type ConfirmationExtras, giftCardEmail, orderConfirmation } from "../orders/emails.js";
import type { OrderLineRow, OrderRow } from "../orders/service.js";
import { juiced } from "./inline-css.js";
import {
  type EmailBrand,
  type EmailDocument,
  platformBrand,
  renderEmail,
  renderEmailWithJuice,
} from "./layout.js";

const lora = fontById("lora")!.stack;
const brands: Record<string, EmailBrand> = {
  platform: platformBrand("https://atelier.example/"),
  boutique: {
    siteTitle: "Maison & Fils 'Atelier' \"Paris\"",
    siteUrl: "https://maison.example",
    colors: {
      background: "#fdf8f2",
      text: "#2b1d12",
      accent: "#7a1f5c",
      accentText: "#fff8e7",
      muted: "#8a7a6b",
      border: "#eadfd2",
    },
    fonts: { heading: lora, body: fontById("system-sans")!.stack },
    logo: { url: "https://maison.example/media/m1/logo.png", alt: "", height: 120 },
    buttonRadius: "999px",
  },
  dark: {
    siteTitle: "Nightshop",
    siteUrl: "https://night.example",
    colors: {
      background: "#111111",
      text: "#eeeeee",
      accent: "#ffcc00",
      accentText: "#000000",
      muted: "#999999",
      border: "#333333",
    },
    fonts: { heading: lora, body: lora },
    logo: { url: "https://night.example/media/n1/logo.svg", alt: "Nightshop logo", height: 40 },
    buttonRadius: "0px",
  },
};

const order = (over: Partial<OrderRow>, details: Record<string, unknown> = {}): OrderRow =>
  ({
    orderNumber: 1001,
    currency: "EUR",
    email: "buyer@example.com",
    testMode: false,
    subtotalCents: 0,
    shippingCents: 0,
    taxCents: 0,
    grandTotalCents: 0,
    shippingAddress: null,
    billingAddress: null,
    details,
    ...over,
  }) as OrderRow;

const line = (productName: string, unitPriceCents: number, quantity = 1, attributes = {}): OrderLineRow =>
  ({ productName, unitPriceCents, quantity, attributes }) as OrderLineRow;

const noExtras: ConfirmationExtras = {
  orderUrl: "https://maison.example/account/orders/o1?key=a&b=c",
  downloads: [],
  giftCards: [],
  subscriptions: [],
};

/** Every email the layout renders, in every shape its senders give it. */
const emails: Record<string, EmailDocument> = {
  "order: physical lines, shipping, discounts, tax, gift card payment": orderConfirmation(
    { title: "Maison & Fils" },
    order(
      {
        orderNumber: 1042,
        subtotalCents: 12_900,
        shippingCents: 590,
        taxCents: 1_200,
        grandTotalCents: 12_690,
        shippingAddress: {
          firstName: "Zoë",
          lastName: "O'Brien",
          line1: "12 rue de la <Paix>",
          line2: "Bât. B",
          city: "Paris",
          postalCode: "75002",
          country: "FR",
        },
        billingAddress: {
          firstName: "Zoë",
          lastName: "O'Brien",
          line1: "1 Main St",
          city: "Lyon",
          country: "FR",
        },
      },
      {
        shippingOption: { id: "s1", name: "Colissimo", costCents: 590 },
        discounts: [
          { name: "Summer sale", amountCents: 1_000, shippingCents: 0 },
          { name: "Discount (FREESHIP)", amountCents: 0, shippingCents: 590 },
        ],
        giftCardCents: 2_000,
      },
    ),
    [line("Linen shirt", 4_500, 2, { Size: "M", Colour: "Blue" }), line('Mug "Café"', 3_900)],
    noExtras,
  ).doc,
  "order: digital, gift card and subscription lines, test mode, coupon": orderConfirmation(
    { title: "Nightshop" },
    order(
      { orderNumber: 7, testMode: true, currency: "USD", subtotalCents: 9_500, grandTotalCents: 9_000 },
      { coupons: [{ code: "WELCOME", kind: "fixed", discountCents: 500 }] },
    ),
    [line("E-book", 1_500), line("Gift card", 5_000), line("Coffee club", 3_000, 1, { Every: "month" })],
    {
      orderUrl: "https://night.example/account/orders/o2",
      downloads: [
        { productName: "E-book <PDF>", url: "https://night.example/download/t0k?x=1&y=2", expiresOn: 0 },
      ],
      giftCards: [{ last4: "AB12", amountCents: 5_000, recipientEmail: "friend@example.com" }],
      subscriptions: [{ productName: "Coffee club", text: "$30.00 every month until you cancel" }],
    },
  ).doc,
  "order: one line, nothing else": orderConfirmation(
    { title: "Shop" },
    order({ grandTotalCents: 100 }),
    [line("Pin", 100)],
    {
      ...noExtras,
      orderUrl: "https://shop.example/account/orders/o3",
    },
  ).doc,
  "gift card with a name and a message": giftCardEmail(
    { title: "Maison & Fils" },
    {
      to: "friend@example.com",
      code: "GIFT-ABCD-EFGH",
      amountCents: 5_000,
      currency: "EUR",
      fromEmail: "buyer@example.com",
      recipientName: "Ann",
      message: 'Happy birthday! 🎂\r\nSee you <soon> & "well"',
      shopUrl: "https://maison.example/shop",
    },
  ).doc,
  "gift card, no name or message": giftCardEmail(
    { title: "Nightshop" },
    {
      to: "friend@example.com",
      code: "GIFT-0000",
      amountCents: 2_500,
      currency: "USD",
      fromEmail: "x@example.com",
      shopUrl: "https://night.example/",
    },
  ).doc,
  "security: password changed": securityEmail(passwordChangedNotice()).doc,
  "security: new device": securityEmail(newDeviceNotice("Firefox on Linux", "203.0.113.9", new Date(0))).doc,
  "security: many wrong passwords": securityEmail(manyWrongPasswordsNotice(12)).doc,
  "security: address changed": securityEmail(emailChangedNotice("new@example.com")).doc,
  "security: reset link": securityEmail({
    subject: "Reset your Atelier password",
    paragraphs: [
      "Open this link within 30 minutes (it works once):",
      "If it was not you, ignore this email.",
    ],
    link: {
      url: "https://atelier.example/config/reset-password?token=abc&x=1",
      label: "Choose a new password",
    },
  }).doc,
  // The site-user password reset (site-users/service.ts).
  "site user: password reset": {
    blocks: [
      { type: "text", text: "Hello Ann," },
      { type: "text", text: "Someone asked to reset the password of your account at Maison." },
      {
        type: "button",
        text: "Choose a new password",
        url: "https://maison.example/account/reset-password?token=t",
      },
      { type: "text", text: "If it was not you, ignore this email: your password stays as it is." },
    ],
  },
  // The abandoned-cart reminder (recovery/email.ts).
  "cart reminder": {
    preheader: "You left something behind",
    blocks: [
      { type: "text", text: "Hi there,\nyour cart is waiting." },
      {
        type: "items",
        items: [
          {
            name: "Linen shirt",
            details: "Size: M · Sold out",
            quantity: 2,
            price: "€90.00",
            imageUrl: "/media/m2/shirt.jpg",
            url: "/shop/linen-shirt",
          },
          { name: "Mug", quantity: 1, price: "€39.00", imageUrl: null, url: "/shop/mug" },
          { name: "Card", quantity: 3, price: "€3.00" },
        ],
      },
      { type: "totals", rows: [["Subtotal", "€132.00"]] },
      { type: "text", text: "Use the code BACK10 at checkout for 10% off. It works once, for this cart." },
      { type: "button", text: "Return to your cart", url: "/cart/recover/r1" },
    ],
    footer: ["You get this email because you started a checkout at Maison with ann@example.com."],
    unsubscribeUrl: "https://maison.example/cart/unsubscribe/u1",
  },
  // The mailing list's double opt-in (forms/double-opt-in.ts).
  "double opt-in": {
    preheader: "One click and you are on the list.",
    blocks: [
      { type: "heading", text: "Please confirm your subscription" },
      {
        type: "text",
        text: "Someone, probably you, asked to join the mailing list of Maison with a@example.com.",
      },
      { type: "button", text: "Confirm my subscription", url: "https://maison.example/confirm/t" },
      { type: "text", text: "If it was not you, ignore this email: you will not be added." },
    ],
    footer: ["You get this email because a@example.com was entered on https://maison.example."],
  },
  // A campaign without rich text (campaigns/render.ts): every other block it makes.
  campaign: {
    preheader: "New season",
    blocks: [
      { type: "image", url: "/media/c1/hero.jpg", alt: "Hero", href: "/shop" },
      { type: "image", url: "https://cdn.example/x.png", alt: "" },
      { type: "button", text: "Shop now", url: "/shop?utm=a&b" },
      {
        type: "products",
        items: [{ name: "Shirt", price: "€45.00", imageUrl: "/media/p/1.jpg", url: "/shop/shirt" }],
      },
      {
        type: "products",
        items: [
          { name: "A", price: "€1.00", imageUrl: "/media/p/a.jpg", url: "/shop/a" },
          { name: "B", imageUrl: null, url: "/shop/b" },
        ],
      },
      {
        type: "products",
        items: [
          { name: "A", price: "€1.00", imageUrl: "/media/p/a.jpg", url: "/shop/a" },
          { name: "B", price: "€2.00", imageUrl: "/media/p/b.jpg" },
          { name: "C", price: "€3.00", imageUrl: "/media/p/c.jpg", url: "/shop/c" },
          { name: "D", price: "€4.00", imageUrl: "/media/p/d.jpg", url: "/shop/d" },
        ],
      },
      { type: "divider" },
      { type: "spacer" },
      { type: "spacer", height: 1 },
      { type: "spacer", height: 60 },
      {
        type: "social",
        links: [
          { label: "Instagram", url: "https://instagram.com/maison" },
          { label: "Facebook", url: "https://facebook.com/maison" },
        ],
      },
    ],
    footer: [
      "1 Main Street, Springfield",
      "You get this email because you joined the mailing list of Maison.",
    ],
    unsubscribeUrl: "https://maison.example/email/unsubscribe/RCPTTOKENxq7",
  },
  // The same blocks with other values: empty and filled attributes swap places (juice writes an
  // empty one bare), the tags learned from the campaign above.
  "campaign, other values": {
    blocks: [
      { type: "image", url: "/media/c2/banner.jpg", alt: "", href: "https://elsewhere.example/?a=1&b=2" },
      { type: "image", url: "/media/c2/b.png", alt: 'Banner "2"' },
      { type: "products", items: [{ name: "", price: "", imageUrl: "/media/p/e.jpg", url: "" }] },
      { type: "spacer", height: 24 },
      { type: "social", links: [] },
    ],
    unsubscribeUrl: "https://maison.example/email/unsubscribe/x",
  },
  // Rich text goes through juice whole; the same output all the same.
  "campaign with rich text": {
    blocks: [
      {
        type: "html",
        html: '<p>Hello <strong>all</strong>, <a href="https://maison.example/x">look</a></p><h2>Sale</h2><ul><li>One</li></ul>',
        text: "Hello all, look\nSale\nOne",
      },
      { type: "button", text: "Go", url: "/" },
    ],
  },
  // Text juice would set aside as a template ({{ }}, <% %>), and its own marker.
  "template-like text": {
    preheader: "{{first_name}}",
    blocks: [
      { type: "heading", text: "Hi {{name}} JUICE_CODE_BLOCK_0_" },
      { type: "text", text: "<% if x %> 50% off }}" },
      { type: "items", items: [{ name: "{{", price: "}}" }] },
    ],
  },
  "empty document": { blocks: [] },
};

describe("the email layout's inlining", () => {
  it("writes every email byte for byte as juice on the whole page does, for every brand", () => {
    for (const [brandName, brand] of Object.entries(brands)) {
      const first = Object.values(emails).map((doc) => renderEmail(brand, doc));
      const again = Object.values(emails).map((doc) => renderEmail(brand, doc));
      Object.entries(emails).forEach(([name, doc], i) => {
        const reference = renderEmailWithJuice(brand, doc);
        expect(first[i], `${brandName}: ${name}`).toEqual(reference);
        expect(again[i], `${brandName}: ${name}, again`).toEqual(reference);
      });
    }
  });

  it("inlines a new order of a known brand without juice, as juice would", () => {
    const brand = brands.boutique!;
    renderEmail(brand, emails["order: physical lines, shipping, discounts, tax, gift card payment"]!);
    const { doc } = orderConfirmation(
      { title: "Maison & Fils" },
      order(
        { orderNumber: 99_999, subtotalCents: 77_700, grandTotalCents: 77_700 },
        { shippingOption: { id: "s2", name: "Express <24h>", costCents: 0 } },
      ),
      [line("Wool coat", 70_000, 1, { Size: "L" }), line("Scarf", 3_850, 2), line("Socks & more", 0, 5)],
      { ...noExtras, orderUrl: "https://maison.example/account/orders/o9" },
    );
    const before = juiced.pages;
    const fast = renderEmail(brand, doc);
    expect(juiced.pages).toBe(before);
    expect(fast).toEqual(renderEmailWithJuice(brand, doc));
  });

  it("fills empty and filled attributes into tags learned from other values, as juice writes them", () => {
    const brand = brands.platform!;
    renderEmail(brand, emails.campaign!);
    const doc = emails["campaign, other values"]!;
    const before = juiced.pages;
    const fast = renderEmail(brand, doc);
    expect(juiced.pages).toBe(before);
    expect(fast).toEqual(renderEmailWithJuice(brand, doc));
    expect(fast.html).toContain('alt style="display:block;');
  });

  it("still runs juice for rich text and for text juice sets aside", () => {
    const brand = brands.dark!;
    renderEmail(brand, emails["campaign with rich text"]!);
    renderEmail(brand, emails["template-like text"]!);
    const before = juiced.pages;
    renderEmail(brand, emails["campaign with rich text"]!);
    renderEmail(brand, emails["template-like text"]!);
    expect(juiced.pages).toBe(before + 2);
  });
});

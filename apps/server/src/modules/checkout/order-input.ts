/** Checks and cleans what the buyer typed at checkout: email, addresses, card details. */
import { isValidEmail } from "@atelier/forms";
import { isCountryCode } from "@atelier/commerce";
import { badRequest } from "../../http/errors.js";
import { cardDetailErrors } from "../payments/provider.js";
import {
  type Address,
  type PlaceOrderInput,
  MSG_EMAIL_INVALID,
  MSG_REQUIRED,
  MSG_COUNTRY_INVALID,
  MSG_FIX_ADDRESS,
} from "./checkout-types.js";

const ADDRESS_REQUIRED = ["firstName", "lastName", "line1", "city", "postalCode", "country"] as const;

function cleanAddress(
  prefix: string,
  a: Address | undefined,
  fields: Record<string, string>,
): Address | undefined {
  if (!a) {
    fields[prefix] = MSG_REQUIRED;
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(a)) if (typeof v === "string") out[k] = v.trim();
  for (const k of ADDRESS_REQUIRED) if (!out[k]) fields[`${prefix}.${k}`] = MSG_REQUIRED;
  if (out.country) {
    out.country = out.country.toUpperCase();
    if (!isCountryCode(out.country)) fields[`${prefix}.country`] = MSG_COUNTRY_INVALID;
  }
  if (out.state) out.state = out.state.toUpperCase();
  return out as unknown as Address;
}

export function checkInput(input: PlaceOrderInput, requiresShipping: boolean) {
  const fields: Record<string, string> = {};
  const email = input.email.trim();
  if (!isValidEmail(email)) fields.email = MSG_EMAIL_INVALID;
  const shipping = requiresShipping
    ? cleanAddress("shippingAddress", input.shippingAddress, fields)
    : undefined;
  const billing = input.billingAddress
    ? cleanAddress("billingAddress", input.billingAddress, fields)
    : requiresShipping
      ? shipping
      : cleanAddress("billingAddress", undefined, fields);
  Object.assign(fields, cardDetailErrors(input.payment));
  const keys = Object.keys(fields);
  if (keys.length) {
    // A bad email or card detail alone is told in its own words; anything else points at the
    // highlighted fields.
    const [only] = keys.length === 1 ? keys : [];
    const own = only === "email" || only?.startsWith("payment.");
    throw badRequest(own ? fields[only!]! : MSG_FIX_ADDRESS, fields);
  }
  return { email, shipping, billing: billing! };
}

/**
 * The email rule (SPEC §5, §9), on its own so that a storefront island checking an address does
 * not load the rest of the form rules with it.
 */

export const EMAIL_MIN_LENGTH = 3;
export const EMAIL_MAX_LENGTH = 256;

/** A string of 3 to 256 characters with a simple address pattern. */
export function isValidEmail(value: unknown): value is string {
  return (
    typeof value === "string" &&
    value.length >= EMAIL_MIN_LENGTH &&
    value.length <= EMAIL_MAX_LENGTH &&
    /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
  );
}

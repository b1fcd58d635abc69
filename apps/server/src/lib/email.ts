/** The email rule of SPEC §5: a string of 3 to 256 characters with a simple address pattern. */
export function isValidEmail(value: unknown): value is string {
  return (
    typeof value === "string" &&
    value.length >= 3 &&
    value.length <= 256 &&
    /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
  );
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

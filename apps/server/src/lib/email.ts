/** One spelling per address: trimmed, lower case. The email rule itself is @atelier/forms' isValidEmail. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

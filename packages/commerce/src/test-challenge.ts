/**
 * 3-D Secure as the browser sees it: the step a charge asks of it (`NextAction`, answered by the
 * checkout and by the billing panel's card save), and the test payment provider's challenge as the
 * browser answers it, in the storefront's checkout and in the dashboard's billing panel alike. No I/O.
 */

/** What the browser must do before the charge can complete (3-D Secure). */
export type NextAction =
  /** The built-in provider's challenge, shown by the checkout page itself. */
  | { type: "test_challenge"; challengeId: string; amountCents: number; currency: string; cardLast4: string }
  /** A page of the card issuer (through the provider) that returns to the checkout afterwards. */
  | { type: "redirect"; url: string };

/** The test provider's challenge: the one step the browser shows itself. */
export type TestChallenge = Extract<NextAction, { type: "test_challenge" }>;

/** How the test bank's authentication ends. */
export type ChallengeOutcome = "succeed" | "fail";

/** The two ways the test bank's authentication can end, as the dialog's buttons (the main one first). */
export const CHALLENGE_OUTCOMES: readonly { outcome: ChallengeOutcome; label: string; primary: boolean }[] = [
  { outcome: "succeed", label: "Complete authentication", primary: true },
  { outcome: "fail", label: "Fail authentication", primary: false },
];

/** Where the browser posts the outcome it chose (`{ outcome }`). */
export function testChallengeUrl(challengeId: string): string {
  return `/api/commerce/payments/test-challenges/${challengeId}`;
}

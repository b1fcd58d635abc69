/**
 * The test payment provider's 3-D Secure challenge as the browser answers it: in the storefront's
 * checkout and in the dashboard's billing panel alike. No I/O.
 */

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

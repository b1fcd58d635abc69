/** The test payment provider's 3-D Secure challenge, answered in a dialog. */
import { CHALLENGE_OUTCOMES, type ChallengeOutcome, formatMoney } from "@atelier/commerce";
import { Modal } from "../../lib/modal.js";
import type { TestChallenge } from "./types.js";

export function Challenge(props: {
  action: TestChallenge;
  busy: boolean;
  onAnswer: (outcome: ChallengeOutcome) => void;
  onClose: () => void;
}) {
  return (
    <Modal
      title="Confirm your payment"
      onClose={props.onClose}
      className="checkout-challenge"
      closeLabel="Cancel authentication"
    >
      <p className="checkout-challenge-bank">3-D Secure · Test bank</p>
      <p>
        Your bank asks you to confirm a payment of{" "}
        <strong>{formatMoney(props.action.amountCents, props.action.currency)}</strong> with the card ending{" "}
        <strong>{props.action.cardLast4}</strong>.
      </p>
      <p className="checkout-muted">This store is in test mode: choose how the authentication ends.</p>
      <div className="checkout-challenge-actions">
        {CHALLENGE_OUTCOMES.map((answer) => (
          <button
            key={answer.outcome}
            type="button"
            className={answer.primary ? "atelier-button" : "atelier-button atelier-button--secondary"}
            disabled={props.busy}
            onClick={() => props.onAnswer(answer.outcome)}
          >
            {answer.label}
          </button>
        ))}
      </div>
    </Modal>
  );
}

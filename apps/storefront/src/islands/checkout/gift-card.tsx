/**
 * The gift card page (/checkout/gift-card?itemId=…&sku=…, where a gift card's add button goes):
 * who receives the card and the note that comes with it; then the card goes into a cart of its
 * own (express) and the checkout continues with that cart's token.
 */
import { isValidEmail } from "@atelier/forms";
import { type FormEvent, useId, useState } from "react";
import { ApiCallError, apiCall } from "../../lib/api.js";
import { SubmitButton } from "./fields.js";

const MSG_RECIPIENT_EMAIL = "Enter the email address the gift card goes to.";

interface GiftCardStepProps {
  itemId: string;
  sku: string;
  onCart: (cartToken: string) => void;
}

export function GiftCardStep({ itemId, sku, onCart }: GiftCardStepProps) {
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [message, setMessage] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const ids = { email: useId(), name: useId(), message: useId() };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!isValidEmail(email.trim())) {
      setError(MSG_RECIPIENT_EMAIL);
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const answer = await apiCall<{ cartToken?: string }>(
        "/api/commerce/shopping-cart/entries?isExpress=true",
        {
          method: "POST",
          body: {
            itemId,
            sku,
            quantity: 1,
            additionalFields: JSON.stringify({
              recipientEmail: email.trim(),
              recipientName: name.trim() || undefined,
              message: message.trim() || undefined,
            }),
          },
        },
      );
      if (!answer.cartToken)
        throw new ApiCallError("The gift card could not be added. Please try again.", 500, "error");
      onCart(answer.cartToken);
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  return (
    <form
      className="checkout-form checkout-gift"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label="Gift card"
    >
      <fieldset className="checkout-section">
        <legend>Who is it for?</legend>
        <p className="checkout-muted">
          The code arrives by email with your note, right after you pay. Whatever is not spent stays on the
          card.
        </p>
        <div className="checkout-field">
          <label htmlFor={ids.email}>Recipient email</label>
          <input
            id={ids.email}
            type="email"
            inputMode="email"
            autoComplete="off"
            value={email}
            aria-invalid={error === MSG_RECIPIENT_EMAIL ? true : undefined}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div className="checkout-field">
          <label htmlFor={ids.name}>
            Recipient name<span className="checkout-optional"> (optional)</span>
          </label>
          <input id={ids.name} autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="checkout-field">
          <label htmlFor={ids.message}>
            Message<span className="checkout-optional"> (optional)</span>
          </label>
          <textarea
            id={ids.message}
            rows={4}
            maxLength={500}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
          />
        </div>
      </fieldset>
      <SubmitButton message={error} busy={busy}>
        Continue to payment
      </SubmitButton>
    </form>
  );
}

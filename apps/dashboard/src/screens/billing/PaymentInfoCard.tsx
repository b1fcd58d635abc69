/**
 * Payment info of the billing panel: the saved card, and the form that verifies and saves a new
 * one with its billing country (the plan's tax follows it). A card whose bank asks for 3-D Secure
 * is authenticated here once: the test bank's challenge in a dialog, or the bank's page for a
 * real provider (which comes back with ?card=authenticated); then the card is kept. The card's
 * details are checked by @atelier/commerce's rules before they are sent (the server checks again).
 */
import {
  CHALLENGE_OUTCOMES,
  type CardDetails,
  type ChallengeOutcome,
  ISO_COUNTRY_CODES,
  type TestChallenge,
  cardErrors,
  testChallengeUrl,
} from "@atelier/commerce";
import type { PaymentInfo, PaymentInfoAnswer } from "@atelier/owner-api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { get, post, put } from "../../api.js";
import { ErrorNotice, Loading, Modal, Notice } from "../../components/ui.js";
import { SelectField, TextField, fieldErrors } from "../../components/form/index.js";

const EMPTY = { cardNumber: "", expMonth: "", expYear: "", cvc: "", country: "" };

/** The card as typed, with its expiry as numbers (an empty one is no number, not 0). */
function typedCard(form: typeof EMPTY): CardDetails {
  const number = (typed: string) => (typed.trim() ? Number(typed) : Number.NaN);
  return {
    cardNumber: form.cardNumber,
    expMonth: number(form.expMonth),
    expYear: number(form.expYear),
    cvc: form.cvc,
  };
}

/** The card's own inputs, all numeric, in the order they are shown. */
const CARD_FIELDS: {
  key: "cardNumber" | "cvc" | "expMonth" | "expYear";
  label: string;
  placeholder?: string;
  autoComplete: string;
  help?: string;
}[] = [
  {
    key: "cardNumber",
    label: "Card number",
    autoComplete: "cc-number",
    help: "Test cards: 4242 4242 4242 4242 is accepted, 4000 0025 0000 3155 asks for 3-D Secure, 4000 0000 0000 0002 is declined.",
  },
  { key: "cvc", label: "Security code (CVC)", autoComplete: "cc-csc" },
  { key: "expMonth", label: "Expiry month", placeholder: "MM", autoComplete: "cc-exp-month" },
  { key: "expYear", label: "Expiry year", placeholder: "YYYY", autoComplete: "cc-exp-year" },
];

function useCountries() {
  return useMemo(() => {
    const names = new Intl.DisplayNames(["en"], { type: "region" });
    return ISO_COUNTRY_CODES.map((code) => ({ value: code, label: names.of(code) ?? code })).sort((a, b) =>
      a.label.localeCompare(b.label),
    );
  }, []);
}

export function PaymentInfoCard({ base }: { base: string }) {
  const queryClient = useQueryClient();
  const countries = useCountries();
  const key = ["billing-payment", base];
  const info = useQuery({
    queryKey: key,
    queryFn: () =>
      get<{ paymentInfo: PaymentInfo | null }>(`${base}/payment-info`).then((r) => r.paymentInfo),
  });
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState(EMPTY);
  const [checked, setChecked] = useState<Record<string, string>>({});
  const [challenge, setChallenge] = useState<TestChallenge>();
  const saved = (paymentInfo: PaymentInfo | null) => {
    queryClient.setQueryData(key, paymentInfo);
    // A past-due plan is charged again with the new card: the plan and invoices change too.
    void queryClient.invalidateQueries();
    setEditing(false);
    setForm(EMPTY);
    setChecked({});
  };
  const confirm = useMutation({
    mutationFn: () => post<PaymentInfoAnswer>(`${base}/payment-info/confirm`),
    onSuccess: (r) => saved(r.paymentInfo),
  });
  const save = useMutation({
    mutationFn: () =>
      put<PaymentInfoAnswer>(`${base}/payment-info`, { ...typedCard(form), country: form.country || null }),
    onSuccess: (r) => {
      const action = r.authentication?.nextAction;
      if (!action) saved(r.paymentInfo);
      else if (action.type === "test_challenge") setChallenge(action);
      else window.location.assign(action.url);
    },
  });
  const answer = useMutation({
    mutationFn: (outcome: ChallengeOutcome) => post(testChallengeUrl(challenge!.challengeId), { outcome }),
    onSettled: () => {
      setChallenge(undefined);
      confirm.mutate();
    },
  });
  // Back from the bank's page of a real provider.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the panel opens
  useEffect(() => {
    const url = new URL(window.location.href);
    if (url.searchParams.get("card") !== "authenticated") return;
    url.searchParams.delete("card");
    window.history.replaceState(null, "", url);
    confirm.mutate();
  }, []);

  const errors = { ...fieldErrors(save.error), ...checked };
  const set = (k: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [k]: value }));
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    confirm.reset();
    save.reset();
    const found = cardErrors(typedCard(form));
    setChecked(found);
    if (!Object.keys(found).length) save.mutate();
  };
  const countryName = (code: string | null) => countries.find((c) => c.value === code)?.label;
  const busy = save.isPending || confirm.isPending || answer.isPending || Boolean(challenge);
  return (
    <section className="card" aria-labelledby="payment-title">
      <h2 id="payment-title">Payment info</h2>
      {info.isLoading ? <Loading /> : null}
      <ErrorNotice error={info.error} />
      {info.data ? (
        <p data-testid="saved-card">
          <strong>•••• •••• •••• {info.data.cardLast4}</strong>{" "}
          <span className="muted">
            expires {String(info.data.expMonth).padStart(2, "0")}/{info.data.expYear}
            {info.data.billingCountry ? ` · billed in ${countryName(info.data.billingCountry)}` : ""}
          </span>
        </p>
      ) : info.isSuccess ? (
        <p className="muted">No card saved. Add one to pay for a plan.</p>
      ) : null}
      {(save.isSuccess && !save.data?.authentication) || confirm.isSuccess ? (
        !editing ? (
          <Notice kind="ok">Card saved.</Notice>
        ) : null
      ) : null}
      <ErrorNotice error={confirm.error} />
      {editing ? (
        <form onSubmit={onSubmit}>
          <ErrorNotice error={save.error} />
          <div className="grid-2">
            {CARD_FIELDS.map(({ key, ...field }) => (
              <TextField
                key={key}
                inputMode="numeric"
                {...field}
                value={form[key]}
                onChange={set(key)}
                error={errors[key]}
              />
            ))}
            <SelectField
              label="Billing country"
              autoComplete="country"
              value={form.country}
              onChange={set("country")}
              error={errors.country}
              help="Tax on your plan (VAT or GST) follows the country of your billing address."
              options={[{ value: "", label: "Choose a country" }, ...countries]}
            />
          </div>
          <div className="btn-row">
            <button type="submit" className="btn primary" disabled={busy}>
              {busy ? "Verifying card…" : "Save card"}
            </button>
            <button type="button" className="btn" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className="btn" onClick={() => setEditing(true)}>
          {info.data ? "Change card" : "Add card"}
        </button>
      )}
      {challenge ? (
        <Modal title="Confirm your card" onClose={() => answer.mutate("fail")}>
          <p className="muted">3-D Secure · Test bank</p>
          <p>
            Your bank asks you to confirm the card ending in <strong>{challenge.cardLast4}</strong> so it can
            pay for your plan automatically.
          </p>
          <div className="btn-row">
            {CHALLENGE_OUTCOMES.map((o) => (
              <button
                key={o.outcome}
                type="button"
                className={o.primary ? "btn primary" : "btn"}
                disabled={answer.isPending}
                onClick={() => answer.mutate(o.outcome)}
              >
                {o.label}
              </button>
            ))}
          </div>
        </Modal>
      ) : null}
    </section>
  );
}

/** The dialog of one order action: fulfil (carrier, tracking), refund (lines, amount, restock) or cancel. */
import { refundSuggestion } from "@atelier/commerce";
import { useMutation } from "@tanstack/react-query";
import { formatCents, post } from "../../api.js";
import {
  CheckboxField,
  MoneyField,
  type MoneyValue,
  TextField,
  useDraft,
} from "../../components/form/index.js";
import { ErrorNotice, ActionDialog } from "../../components/ui.js";
import type { Order } from "./order-types.js";
import { RefundLines, chosenUnits, refundOrderOfJson, restockableUnits } from "./RefundLines.js";

export function OrderAction({
  kind,
  order,
  url,
  onClose,
  onDone,
}: {
  kind: "fulfil" | "refund" | "cancel";
  order: Order;
  url: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const left = order.grandTotalCents - order.refundedCents;
  const form = useDraft({
    carrier: "",
    trackingNumber: "",
    notifyCustomer: true,
    amountCents: left as MoneyValue,
    restock: true,
    reason: "",
    /** Units to refund by line id: the amount follows them (each line's share of the discounts). */
    units: {} as Record<string, number>,
  });
  const v = form.values;
  const chosen = chosenUnits(v.units);
  const setUnits = (units: Record<string, number>) => {
    const picked = chosenUnits(units);
    const suggested = picked.length
      ? Math.min(left, refundSuggestion(refundOrderOfJson(order), picked).amountCents)
      : left;
    form.set({ units, amountCents: suggested });
  };
  const act = useMutation({
    mutationFn: () => {
      if (kind === "fulfil")
        return post(`${url}/fulfil`, {
          carrier: v.carrier || undefined,
          trackingNumber: v.trackingNumber || undefined,
          notifyCustomer: v.notifyCustomer,
        });
      if (kind === "cancel")
        return post(`${url}/cancel`, {
          restock: v.restock,
          reason: v.reason || undefined,
          notifyCustomer: v.notifyCustomer,
        });
      if (typeof v.amountCents !== "number") throw new Error("Enter the amount to refund.");
      return post(`${url}/refund`, {
        amountCents: v.amountCents,
        ...(chosen.length
          ? {
              refundLines: chosen,
              ...(v.restock ? { restockLines: restockableUnits(order, chosen) } : {}),
            }
          : { restock: v.restock }),
        reason: v.reason || undefined,
      });
    },
    onSuccess: () => {
      onDone();
      onClose();
    },
  });
  const title = kind === "fulfil" ? "Fulfil order" : kind === "refund" ? "Refund order" : "Cancel order";
  return (
    <ActionDialog
      title={`${title} #${order.orderNumber}`}
      onClose={onClose}
      cancelLabel="Back"
      action={title}
      onAction={() => act.mutate()}
      kind={kind === "fulfil" ? "primary" : "danger"}
      disabled={act.isPending}
    >
      <ErrorNotice error={act.error} />
      {kind === "fulfil" ? (
        <>
          <TextField label="Carrier" {...form.bind("carrier", act.error)} />
          <TextField label="Tracking number" {...form.bind("trackingNumber", act.error)} />
        </>
      ) : null}
      {kind === "refund" ? (
        <>
          <RefundLines order={order} units={v.units} onChange={setUnits} />
          <MoneyField
            label={`Amount to refund (${order.currency})`}
            currency={order.currency}
            {...form.bind("amountCents", act.error)}
            help={
              chosen.length
                ? `Suggested for the chosen items: their price less their share of the discounts, plus their tax. Up to ${formatCents(left, order.currency)}.`
                : `Up to ${formatCents(left, order.currency)}`
            }
          />
        </>
      ) : null}
      {kind !== "fulfil" ? (
        <>
          <CheckboxField
            label={chosen.length ? "Put the chosen items back in stock" : "Put the items back in stock"}
            {...form.bind("restock", act.error)}
          />
          <TextField label="Reason" {...form.bind("reason", act.error)} />
        </>
      ) : null}
      {kind !== "refund" ? (
        <CheckboxField label="Email the customer" {...form.bind("notifyCustomer", act.error)} />
      ) : null}
    </ActionDialog>
  );
}

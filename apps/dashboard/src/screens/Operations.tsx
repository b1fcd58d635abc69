/**
 * Operations: orders (list, detail, fulfil, refund, cancel), form submissions (list, CSV),
 * restock sign-ups (per variant, send and send all), site users and the email outbox. These
 * screens use the owner calls of the checkout, forms, restock and email modules.
 */
import { useParams } from "react-router";
import { OrderDetail } from "./operations/OrderDetail.js";
import { Orders } from "./operations/Orders.js";
import { Outbox } from "./operations/Outbox.js";
import { Restock } from "./operations/Restock.js";
import { SiteUsers } from "./operations/SiteUsers.js";
import { FormSubmissions } from "./operations/Submissions.js";

export function Operations() {
  const { area = "orders", id } = useParams();
  if (area === "orders") return id ? <OrderDetail orderId={id} /> : <Orders />;
  if (area === "forms") return <FormSubmissions formId={id} />;
  if (area === "restock") return <Restock />;
  if (area === "site-users") return <SiteUsers />;
  return <Outbox />;
}

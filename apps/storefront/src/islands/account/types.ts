/** The account pages and what the site-user account calls answer. */
import type { AccountOrder, AccountSubscription, SavedAddress } from "@atelier/commerce";

/** An account page. */
export type View =
  | "login"
  | "register"
  | "forgot-password"
  | "reset-password"
  | "overview"
  | "orders"
  | "addresses";

export type Address = SavedAddress;

export type Order = AccountOrder;
export type Subscription = AccountSubscription;

export interface AccountData {
  account: { email: string; firstName: string; lastName: string };
  orders: Order[];
  addresses: Address[];
  subscriptions: Subscription[];
}

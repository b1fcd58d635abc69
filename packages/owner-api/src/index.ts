/** The JSON shapes of the owner API (and the design choices they allow), shared by the server that answers them and the dashboard. */
export type { ExportJob, ExportStatus } from "./exports.js";
export { BUTTON_SHAPES, BUTTON_STYLES, COLOR_KEYS, SPACINGS, STYLE_RANGES } from "./design.js";
export type { ButtonShape, ButtonStyle, ColorKey, Spacing, Styles } from "./design.js";
export type { Order, OrderLine } from "./orders.js";
export type { OutboxEmail, OutboxPage } from "./outbox.js";
export type { SignUpGroup } from "./restock.js";
export type { OwnerSiteUser } from "./site-users.js";

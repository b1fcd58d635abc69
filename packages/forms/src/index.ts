export * from "./fields.js";
export * from "./messages.js";
export * from "./submit.js";
export * from "./summary.js";
export * from "./template-schema.js";
export * from "./validate.js";
export * from "./values.js";
export * from "./page-layout.js";

/**
 * A form with every field type of SPEC §3, as an owner sends it: shared by the server's forms
 * tests and the browser test of the form island. The section and the likert field are sent as
 * required; the server never keeps them so (sections carry no answer, likert is never required).
 */
export const EVERY_FIELD = [
  { id: "f-text", type: "text", title: "Nickname", required: true },
  { id: "f-textarea", type: "textarea", title: "About you", maxLength: 20 },
  { id: "f-email", type: "email", title: "Your email", required: true },
  { id: "f-currency", type: "currency", title: "Budget" },
  { id: "f-number", type: "number", title: "Guests" },
  { id: "f-website", type: "website", title: "Website" },
  { id: "f-password", type: "password", title: "Secret word" },
  { id: "f-twitter", type: "twitter", title: "Twitter" },
  { id: "f-date", type: "date", title: "Date", required: true },
  { id: "f-time", type: "time", title: "Time" },
  { id: "f-name", type: "name", title: "Your name", required: true },
  { id: "f-address", type: "address", title: "Address" },
  { id: "f-phone", type: "phone", title: "Phone number", required: true },
  {
    id: "f-section",
    type: "section",
    title: "About the workshop",
    description: "Tell us what you like.",
    required: true,
  },
  { id: "f-radio", type: "radio", title: "Level", required: true, options: ["Beginner", "Advanced"] },
  { id: "f-checkbox", type: "checkbox", title: "Topics", required: true, options: ["Glaze", "Wheel"] },
  { id: "f-select", type: "select", title: "Day", required: true, options: ["Saturday", "Sunday"] },
  { id: "f-likert", type: "likert", title: "Survey", required: true, questions: ["I like clay"] },
  { id: "f-hidden", type: "hidden", title: "Campaign", value: "spring" },
];

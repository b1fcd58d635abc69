/**
 * Every message of site forms (SPEC §5 and §8), word for word. The client and the server
 * use these constants, so a visitor sees the same text whichever side found the problem.
 */

export const MSG_REQUIRED = "Required";
/** The checkbox group's message is never translated (SPEC §5). */
export const MSG_CHECKBOX_REQUIRED = "Required";
export const MSG_CHARACTER_LIMIT = "You have exceeded the character limit.";
/** The example address shown in the email message's `{email}` placeholder. */
export const EMAIL_FORMAT_EXAMPLE = "user@domain.com";
export const MSG_FORM_INVALID = "One or more fields is invalid, please check your entries.";

export const MSG_SUBMITTING = "Submitting…";
export const MSG_SAVING = "Saving…";
export const MSG_PROCESSING_ERROR = "Error processing form submission. Please reload and try again.";
export const MSG_KEY_ERROR = "Could not get a form submission key, please try again later.";
export const MSG_PARSE_ERROR = "Could not parse the form fields, please check your entries.";
export const MSG_CAPTCHA_INCOMPLETE = "Complete CAPTCHA before submitting.";
export const MSG_BANNER_SCROLL_DOWN = "Your form has encountered a problem. Please scroll down to review.";
export const MSG_BANNER_SCROLL_UP = "Your form has encountered a problem. Please scroll up to review.";
export const MSG_CAPTCHA_NOT_SET_UP = "ReCaptcha has not been set up!";
export const MSG_CAPTCHA_DESTROYED = "Document was destroyed";

/** Answers of SaveFormSubmission by HTTP status (SPEC §8). */
export const MSG_STATUS_401 = "Unable to submit form. Please try again later.";
export const MSG_STATUS_404 = "This form has not been configured yet.";
export const MSG_STATUS_429 =
  "Unable to submit form. Submission rate limit exceeded. Please try again later.";
export const MSG_STATUS_500 = "Unable to send form. Please try again later.";
export const MSG_UNKNOWN_ERROR = "Unknown error, please try again later.";

/** The token the offline test captcha hands out when its box is ticked (and the only one it passes). */
export const TEST_CAPTCHA_TOKEN = "test-captcha-pass";

/** Form answers with no text show this in summaries (SPEC §8). */
export const NO_ANSWER_TEXT = "N/A";

/** Our own messages for the field types whose format the SPEC leaves open ("not shown"). */
export const MSG_INVALID_NUMBER = "Please enter a number.";
export const MSG_INVALID_AMOUNT = "Please enter an amount, like 25 or 25.50.";
export const MSG_INVALID_URL = "Please enter a web address, like example.com.";
export const MSG_URL_TOO_LONG = "Web addresses must be under 2083 characters.";
export const MSG_INVALID_TWITTER = "Please enter a Twitter handle, like @atelier.";
export const MSG_INVALID_DATE = "Please enter a real date.";
export const MSG_INVALID_TIME = "Please enter a real time.";
export const MSG_INVALID_PHONE = "Please enter a phone number using digits.";
export const MSG_INVALID_CHOICE = "Please choose one of the options.";

/**
 * 'Email is not valid. Email addresses should follow the format {email}.' with the example
 * address (or a translated example) in place of `{email}`.
 */
export function emailInvalidMessage(example: string = EMAIL_FORMAT_EXAMPLE): string {
  return `Email is not valid. Email addresses should follow the format ${example}.`;
}

/**
 * The message shown for a failed SaveFormSubmission: fixed texts for 401, 404, 429 and 500, else
 * the server's own text, else the unknown-error text (SPEC §8). 400 answers with field errors
 * show each error at its field; their summary message comes from the server.
 */
export function submissionStatusMessage(status: number, serverText?: string | null): string {
  switch (status) {
    case 401:
      return MSG_STATUS_401;
    case 404:
      return MSG_STATUS_404;
    case 429:
      return MSG_STATUS_429;
    case 500:
      return MSG_STATUS_500;
  }
  const text = typeof serverText === "string" ? serverText.trim() : "";
  return text || MSG_UNKNOWN_ERROR;
}

/** The messages a site may translate; the checkbox group's 'Required' is deliberately not here. */
export interface FormStrings {
  required?: string;
  characterLimit?: string;
  /** The example address shown in the email message. */
  emailExample?: string;
  /** The whole email message, `{email}` replaced by the example. */
  emailInvalid?: string;
  formInvalid?: string;
}

export function resolveStrings(strings: FormStrings = {}) {
  const example = strings.emailExample ?? EMAIL_FORMAT_EXAMPLE;
  return {
    required: strings.required ?? MSG_REQUIRED,
    characterLimit: strings.characterLimit ?? MSG_CHARACTER_LIMIT,
    emailInvalid: strings.emailInvalid
      ? strings.emailInvalid.replace("{email}", example)
      : emailInvalidMessage(example),
    formInvalid: strings.formInvalid ?? MSG_FORM_INVALID,
  };
}

/** The query keys of the Account screen's answers (they start with the account's own key). */
export const SECURITY_KEY = ["account", "security"];
export const SESSIONS_KEY = ["account", "sessions"];

// Text the model or a tool chose, made fit for the screen: every secret the process knows replaced
// (a model may write a key into a command, a path or an edit) and then sanitised. Redaction comes
// first, so a key split by a control character the sanitiser would make visible is still found.
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import { redactSecrets } from "../../safety/secrets.js";

export function screenText(text: string): string {
	return sanitizeTerminalText(redactSecrets(text));
}

/** Outside text for one row (a rule, a file name): sanitised, a newline shown as ⏎ so it cannot draw a second row. */
export const oneLine = (text: string): string => sanitizeTerminalText(text).replace(/\r?\n/g, "⏎");

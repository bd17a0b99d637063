// A tool call's arguments on one line: the field a person looks for first (the command, the path),
// else compact JSON. Known secrets redacted, sanitised and cut to `max` characters.
import { screenText } from "./screen-text.js";

const MAIN_FIELDS = ["command", "path", "file_path", "pattern", "url", "query"];

export function formatToolArgs(args: unknown, max = 200): string {
	let text = "";
	if (args && typeof args === "object") {
		const record = args as Record<string, unknown>;
		const main = MAIN_FIELDS.find((f) => typeof record[f] === "string");
		text = main ? String(record[main]) : JSON.stringify(args);
	} else if (args !== undefined) text = String(args);
	const oneLine = screenText(text).replace(/\s*\n\s*/g, " ⏎ ");
	return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

// Reading the JSON files of the config folder: absent is not an error, and a parse error names the file.
import { existsSync, readFileSync } from "node:fs";

export function readIfExists(file: string): string | undefined {
	if (!existsSync(file)) return undefined;
	return readFileSync(file, "utf8");
}

/** The top-level object of a config file; throws `<file>: <problem>`, one line. */
export function parseJsonObject(text: string, file: string): Record<string, unknown> {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		throw new Error(`${file}: invalid JSON: ${(error as Error).message.split("\n")[0]}`);
	}
	if (!isObject(value)) throw new Error(`${file}: expected a JSON object at the top level`);
	return value;
}

export function isObject(value: unknown): value is Record<string, any> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

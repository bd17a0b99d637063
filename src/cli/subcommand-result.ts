// How a `rudder <command> …` subcommand (permissions, mcp) ends: its output and exit code, every
// failure one line on stderr (2: bad usage, with where to read the usage; 1: the command failed).
import { CommanderError } from "commander";
import { sanitizeTerminalText } from "../safety/sanitize.js";
import { redactSecrets } from "../safety/secrets.js";

export interface CommandOutput {
	code: number;
	stdout: string;
	stderr: string;
}

/** The output of a subcommand that threw `error`, for `rudder <command>` (e.g. "rudder mcp"). */
export function failedCommand(command: string, error: unknown, out: { stdout: string; stderr: string }): CommandOutput {
	if (error instanceof CommanderError) {
		if (error.code === "commander.helpDisplayed" || error.code === "commander.help" || error.code === "commander.version")
			return { code: 0, ...out };
		const line = (out.stderr.trim() || error.message).split("\n")[0]?.replace(/^error: /, "") ?? "";
		return { code: 2, stdout: out.stdout, stderr: `${command}: ${line} (see ${command} --help)\n` };
	}
	const message = error instanceof Error ? error.message : String(error);
	return {
		code: 1,
		stdout: out.stdout,
		stderr: `${out.stderr}${command}: ${sanitizeTerminalText(redactSecrets(message.split("\n")[0] ?? ""))}\n`,
	};
}

// Asked once, before the app mounts, when a project would grant itself something: its
// .rudder/settings.json widens what Rudder may do (allow rules, a looser mode, network), or it
// configures MCP servers, each of which would run a command (or reach a URL) with the user's rights,
// or hooks, each a command run on an event, outside the sandbox. A cloned repository can hold any of
// these files, so everything it asks for is shown in full and the answer is the user's, remembered
// outside the project. One component; the three questions are data (the builders below).
import { Box, Text, useInput } from "ink";
import type { HookCommand } from "../../extensions/hooks/types.js";
import type { McpTrustRequest } from "../../extensions/mcp/manager.js";
import { formatMcpTrustLines } from "../../extensions/mcp/trust-details.js";
import type { Widening } from "../../permissions/resolve.js";
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import { color, theme } from "../text/theme.js";

/** One thing the project asks for: a bold name with where it comes from, then what it is. */
export interface TrustItem {
	name?: string;
	from?: string;
	text: string;
}

/** A trust question: the title, an optional lead line, the items, the warning, and what y and n mean. */
export interface TrustQuestion {
	title: string;
	lead?: string;
	items: readonly TrustItem[];
	warning: string;
	yes: string;
	no: string;
}

/** The question for project settings that widen permissions. */
export function settingsTrust(widenings: readonly Widening[]): TrustQuestion {
	const file = widenings[0]?.file ?? ".rudder/settings.json";
	return {
		title: "Trust this folder's settings?",
		lead: `${file} asks for more than your own settings allow:`,
		items: widenings.map((w) => ({ text: w.entry })),
		warning: "A cloned repository can hold this file. Trust it only if you trust the project.",
		yes: "trust (remembered)",
		no: "ignore these entries (its deny rules and stricter settings still apply)",
	};
}

/**
 * The question for the project's MCP servers: each with its file, its whole command line, folder, env
 * values (secrets redacted) and headers, and the env names that can run code flagged.
 */
export function mcpTrust(request: McpTrustRequest): TrustQuestion {
	return {
		title: "Start this project's MCP servers?",
		items: request.servers.map((s) => ({
			name: s.name,
			from: s.file,
			// The first line names the server and its file, shown above as name and from.
			text: formatMcpTrustLines({ servers: [s] })
				.slice(1)
				.map((line) => line.trimStart())
				.join("\n"),
		})),
		warning: "They run with your permissions, and a cloned repository can hold this configuration.",
		yes: "start them (remembered for this folder)",
		no: "not now (remembered; /mcp allow later)",
	};
}

/** The question for the project's hooks: each with its event, matcher and file, and its command in full. */
export function hooksTrust(hooks: readonly Pick<HookCommand, "event" | "matcher" | "command" | "file">[]): TrustQuestion {
	return {
		title: "Run this project's hooks?",
		lead: "These commands would run on the events named, as you, outside the sandbox:",
		items: hooks.map((h) => ({ name: `${h.event}${h.matcher ? ` [${h.matcher}]` : ""}`, from: h.file, text: h.command })),
		warning: "A cloned repository can hold this configuration. Trust it only if you trust the project.",
		yes: "run them (remembered for this folder until a command changes)",
		no: "not now (remembered; /hooks trust later)",
	};
}

/** y answers yes; n, Enter and Esc answer no. Everything shown goes through the sanitiser. */
export function TrustPrompt({ question, onAnswer }: { question: TrustQuestion; onAnswer: (yes: boolean) => void }) {
	useInput((input, key) => {
		if (input.toLowerCase() === "y") onAnswer(true);
		else if (input.toLowerCase() === "n" || key.escape || key.return) onAnswer(false);
	});
	return (
		<Box flexDirection="column" borderStyle="round" paddingX={1}>
			<Text bold color={color(theme.warning)}>
				{question.title}
			</Text>
			{question.lead ? <Text>{sanitizeTerminalText(question.lead)}</Text> : null}
			{question.items.map((item, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed while the prompt shows
				<Box key={i} flexDirection="column">
					{item.name !== undefined ? (
						<Text>
							<Text bold>{sanitizeTerminalText(item.name)}</Text>
							{item.from ? <Text dimColor> from {sanitizeTerminalText(item.from)}</Text> : null}
						</Text>
					) : null}
					<Text> {sanitizeTerminalText(item.text)}</Text>
				</Box>
			))}
			<Text dimColor>{question.warning}</Text>
			<Text>
				<Text bold>y</Text> {question.yes} · <Text bold>n</Text> / Enter / Esc {question.no}
			</Text>
		</Box>
	);
}

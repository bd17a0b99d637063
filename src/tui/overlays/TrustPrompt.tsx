// Asked once, before the app mounts, when a project would grant itself something: its
// .rudder/settings.json widens what Rudder may do (allow rules, a looser mode, network), or it
// configures MCP servers, each of which would run a command (or reach a URL) with the user's rights.
// A cloned repository can hold either file, so everything it asks for is shown and the answer is the
// user's, remembered outside the project. One component; the two questions are data (the builders below).
import { Box, Text, useInput } from "ink";
import type { McpTrustRequest } from "../../extensions/mcp/manager.js";
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

/** The question for the project's MCP servers: each with its file and command line. */
export function mcpTrust(request: McpTrustRequest): TrustQuestion {
	return {
		title: "Start this project's MCP servers?",
		items: request.servers.map((s) => ({ name: s.name, from: s.file, text: s.target })),
		warning: "They run with your permissions, and a cloned repository can hold this configuration.",
		yes: "start them (remembered for this folder)",
		no: "not now (remembered; /mcp allow later)",
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

// Asked before the app mounts when the project configures MCP servers the user has not trusted yet:
// each would run a command (or reach a URL) with the user's rights, and a cloned repository can hold
// the config, so every command line is shown and the answer is the user's, remembered for the folder.
import { Box, Text, useInput } from "ink";
import type { McpTrustRequest } from "../src/extensions/mcp/manager.js";
import { sanitizeTerminalText } from "../src/safety/sanitize.js";
import { color, theme } from "./theme.js";

export function McpTrustPrompt({ request, onAnswer }: { request: McpTrustRequest; onAnswer: (allow: boolean) => void }) {
	useInput((input, key) => {
		if (input.toLowerCase() === "y") onAnswer(true);
		else if (input.toLowerCase() === "n" || key.escape || key.return) onAnswer(false);
	});
	return (
		<Box flexDirection="column" borderStyle="round" paddingX={1}>
			<Text bold color={color(theme.warning)}>
				Start this project's MCP servers?
			</Text>
			{request.servers.map((s) => (
				<Box key={s.name} flexDirection="column">
					<Text>
						<Text bold>{sanitizeTerminalText(s.name)}</Text>
						<Text dimColor> from {sanitizeTerminalText(s.file)}</Text>
					</Text>
					<Text> {sanitizeTerminalText(s.target)}</Text>
				</Box>
			))}
			<Text dimColor>They run with your permissions, and a cloned repository can hold this configuration.</Text>
			<Text>
				<Text bold>y</Text> start them (remembered for this folder) · <Text bold>n</Text> / Enter / Esc not now (remembered; /mcp allow
				later)
			</Text>
		</Box>
	);
}

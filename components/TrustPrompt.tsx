// Asked once per folder, before the app starts, when the project's .rudder/settings.json would widen
// what Rudder may do (allow rules, a looser mode, network). A cloned repository must not grant itself
// rights, so the answer is the user's and is remembered outside the project.
import { Box, Text, useInput } from "ink";
import type { Widening } from "../src/permissions/resolve.js";
import { sanitizeTerminalText } from "../src/safety/sanitize.js";
import { color, theme } from "./theme.js";

export function TrustPrompt({ widenings, onAnswer }: { widenings: readonly Widening[]; onAnswer: (trusted: boolean) => void }) {
	useInput((input, key) => {
		if (input.toLowerCase() === "y") onAnswer(true);
		else if (input.toLowerCase() === "n" || key.escape || key.return) onAnswer(false);
	});
	const file = widenings[0]?.file ?? ".rudder/settings.json";
	return (
		<Box flexDirection="column" borderStyle="round" paddingX={1}>
			<Text bold color={color(theme.warning)}>
				Trust this folder's settings?
			</Text>
			<Text>{sanitizeTerminalText(file)} asks for more than your own settings allow:</Text>
			{widenings.map((w) => (
				<Text key={w.entry}> {sanitizeTerminalText(w.entry)}</Text>
			))}
			<Text dimColor>A cloned repository can hold this file. Trust it only if you trust the project.</Text>
			<Text>
				<Text bold>y</Text> trust (remembered) · <Text bold>n</Text> / Enter / Esc ignore these entries (its deny rules and stricter
				settings still apply)
			</Text>
		</Box>
	);
}
